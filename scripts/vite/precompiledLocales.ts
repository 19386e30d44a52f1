import { baseCompile } from '@intlify/message-compiler'

/**
 * The renderer ships vue-i18n's runtime build, which has no message compiler (it is ~300 KB of
 * the full build). This plugin turns each locale domain module (`i18n/locales/<lang>/<domain>.ts`,
 * a plain `export default { ... }`) into the same object with every message compiled to the AST
 * the runtime evaluates. Index modules only spread the domains and are left alone.
 */
const LOCALE_DOMAIN = /[\\/]i18n[\\/]locales[\\/][^\\/]+[\\/](?!index\.)[^\\/]+\.ts$/

export function precompiledLocalesPlugin() {
  return {
    name: 'deepchat-precompiled-locales',
    apply: 'build' as const,
    // After the TypeScript transform: the module is plain JavaScript by then.
    enforce: 'post' as const,
    async transform(code: string, id: string) {
      if (!LOCALE_DOMAIN.test(id)) return null
      const messages = await evaluateModule(code, id)
      return { code: `export default ${JSON.stringify(compileTree(messages, ''))}`, map: null }
    }
  }
}

async function evaluateModule(code: string, id: string): Promise<unknown> {
  if (/^\s*import\s/m.test(code)) throw new Error(`${id}: a locale domain module may not import anything`)
  const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
    default: unknown
  }
  return module.default
}

/** Compiles every string leaf; a message the compiler rejects fails the build with its key. */
export function compileTree(value: unknown, path: string): unknown {
  if (typeof value === 'string') {
    const { ast } = baseCompile(value, {
      jit: true,
      location: false,
      minify: true,
      onError: (error) => {
        throw new Error(`locale message ${path}: ${error.message}`)
      }
    })
    return ast
  }
  if (Array.isArray(value)) return value.map((item, i) => compileTree(item, `${path}[${i}]`))
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, compileTree(child, path ? `${path}.${key}` : key)])
    )
  return value
}
