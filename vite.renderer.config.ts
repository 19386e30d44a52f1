import { resolve } from 'node:path'
import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import tailwindcss from '@tailwindcss/vite'

// Renderer-only dev server (`npm run dev:web`), for UI work without Electron: point it at a
// running `npm run serve` by opening http://127.0.0.1:5174/#token=...&host=127.0.0.1:PORT.
const root = import.meta.dirname
export default defineConfig({
  root: resolve(root, 'src/renderer'),
  define: { __APP_VERSION__: JSON.stringify('dev') },
  resolve: {
    alias: { '@renderer': resolve(root, 'src/renderer/src'), '@shared': resolve(root, 'src/shared') }
  },
  plugins: [vue(), tailwindcss()],
  server: { host: '127.0.0.1', port: 5174 }
})
