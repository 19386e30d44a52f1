import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import pluginVue from 'eslint-plugin-vue'
import vueParser from 'vue-eslint-parser'
import globals from 'globals'
import prettier from 'eslint-config-prettier'
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments'

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.electron-native/**',
      'test/e2e/artifacts/**',
      'release/**',
      // electron-vite bundles its config to a temporary file beside it while the build runs
      // (beside lint in CI): listed by the walk, gone before it is read.
      'electron.vite.config.ts.*.mjs',
      '**/*.timestamp-*.mjs'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } }
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off'
    }
  },
  // Layout is Prettier's (npm run format); ESLint checks code, not whitespace.
  prettier,
  {
    files: ['src/renderer/**/*.{ts,vue}', 'test/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } }
  },
  {
    // Tests are typed like the code: no `any`, and no comment switching the rule off (fix the
    // types: routes through call() from their contracts, wire bodies through openAiBody()).
    files: ['test/**/*.{ts,vue}'],
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@eslint-community/eslint-comments/no-restricted-disable': [
        'error',
        '@typescript-eslint/no-explicit-any'
      ],
      '@eslint-community/eslint-comments/no-unlimited-disable': 'error'
    }
  },
  {
    // Where code runs decides what it may import (docs/ARCHITECTURE.md).
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'electron only in src/main/electron/' }] }
      ]
    }
  },
  {
    // Presenters hear of each other through hooks wired in createPresenters(); the event hub is the renderer's.
    files: ['src/main/presenter/**/*.ts'],
    ignores: ['src/main/presenter/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'electron only in src/main/electron/' }],
          patterns: [
            {
              group: ['**/bridge/events'],
              importNames: ['EventHub', 'EventListener'],
              message:
                'A presenter only emits (EventSink); to hear another presenter, add a hook (docs/ARCHITECTURE.md#lifecycle-hooks)'
            }
          ]
        }
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='subscribe']",
          message:
            'Presenters do not listen to the event hub: add a hook and wire it in createPresenters() (docs/ARCHITECTURE.md#lifecycle-hooks)'
        }
      ]
    }
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'vue', 'pinia'],
          patterns: [{ group: ['node:*'], message: 'src/shared runs everywhere: no node modules' }]
        }
      ]
    }
  },
  {
    files: ['src/renderer/**/*.{ts,vue}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: ['node:*', '**/main/**'], message: 'the renderer never imports node or main code' }
          ]
        }
      ]
    }
  },
  {
    // The renderer's data goes through its stores: only they call routes and hear events
    // (docs/ARCHITECTURE.md#the-renderer). main.ts creates the bridge before the router rewrites
    // the URL holding the host's token; anyone may tell a BridgeError.
    files: ['src/renderer/**/*.{ts,vue}'],
    ignores: ['src/renderer/src/stores/**', 'src/renderer/src/api/**', 'src/renderer/src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: ['node:*', '**/main/**'], message: 'the renderer never imports node or main code' },
            {
              group: ['**/api/bridge'],
              allowImportNames: ['BridgeError'],
              message: 'Only stores call routes and subscribe to events: add an action to a store in stores/'
            },
            {
              group: ['**/api/transports'],
              message: 'Only stores call routes and subscribe to events: add an action to a store in stores/'
            }
          ]
        }
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/api.(bridge|transports)$/]',
          message: 'Only stores call routes and subscribe to events: add an action to a store in stores/'
        },
        {
          selector: "MemberExpression[object.property.name='deepchat']",
          message: 'Only stores call routes and subscribe to events: add an action to a store in stores/'
        }
      ]
    }
  }
)
