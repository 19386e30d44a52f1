import { resolve } from 'node:path'
import { readFileSync } from 'node:fs'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import tailwindcss from '@tailwindcss/vite'
import { contentSecurityPolicyMetaPlugin } from './src/main/security'
import { precompiledLocalesPlugin } from './scripts/vite/precompiledLocales'
import { firstLoadReportPlugin } from './scripts/vite/firstLoad'

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
    define: {
      ...define,
      // vue-i18n's runtime build with messages compiled at build time (precompiledLocalesPlugin).
      __INTLIFY_JIT_COMPILATION__: 'true',
      __INTLIFY_DROP_MESSAGE_COMPILER__: 'true',
      __INTLIFY_PROD_DEVTOOLS__: 'false',
      __VUE_I18N_FULL_INSTALL__: 'false',
      __VUE_I18N_LEGACY_API__: 'false',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false'
    },
    resolve: {
      alias: [
        { find: '@renderer', replacement: resolve(root, 'src/renderer/src') },
        { find: '@shared', replacement: shared['@shared'] },
        { find: /^vue-i18n$/, replacement: resolve(root, 'node_modules/vue-i18n/dist/vue-i18n.runtime.mjs') }
      ]
    },
    plugins: [
      vue(),
      tailwindcss(),
      contentSecurityPolicyMetaPlugin(),
      precompiledLocalesPlugin(),
      firstLoadReportPlugin()
    ],
    build: {
      // The manifest lets the first-load budget be checked (test/e2e/firstLoad.e2e.test.ts).
      manifest: true,
      minify: true,
      rolldownOptions: { input: { index: resolve(root, 'src/renderer/index.html') } }
    }
  }
})
