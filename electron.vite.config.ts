import { resolve } from 'node:path'
import { readFileSync } from 'node:fs'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import tailwindcss from '@tailwindcss/vite'
import { contentSecurityPolicyMetaPlugin } from './src/main/security'

const root = import.meta.dirname
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }
const shared = { '@shared': resolve(root, 'src/shared') }
const define = { __APP_VERSION__: JSON.stringify(version) }

export default defineConfig({
  main: {
    define,
    resolve: { alias: shared },
    build: {
      externalizeDeps: true,
      rolldownOptions: {
        // index: the Electron entry; host: the headless entry (`npm run serve`), plain Node.
        input: { index: resolve(root, 'src/main/index.ts'), host: resolve(root, 'src/main/host/index.ts') }
      }
    }
  },
  preload: {
    resolve: { alias: shared },
    build: {
      // A sandboxed preload may only require('electron'): bundle everything else, emit CommonJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    define,
    resolve: { alias: { '@renderer': resolve(root, 'src/renderer/src'), ...shared } },
    plugins: [vue(), tailwindcss(), contentSecurityPolicyMetaPlugin()],
    build: { rolldownOptions: { input: { index: resolve(root, 'src/renderer/index.html') } } }
  }
})
