// The Chromium that `npm install` brings (@sparticuz/chromium ships it brotli-compressed inside the
// package), for machines without a system Chromium. Unpacked once into node_modules/.cache; the
// package's own unpacker is not used because it trusts whatever sits at /tmp/chromium.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { x as untar } from 'tar'

const require = createRequire(import.meta.url)

export interface NpmChromium {
  executablePath: string
  /** Environment for the browser process: the NSS libraries and fonts the package ships. */
  env: Record<string, string>
}

/** Unpacks the package's browser (about 2 s the first time) and says how to run it. */
export function npmChromium(): NpmChromium {
  // The package exports only its entry (build/index.js): its folder is one up from there.
  const packageDir = dirname(dirname(require.resolve('@sparticuz/chromium')))
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string
  }
  const bin = join(packageDir, 'bin')
  const root = join(packageDir, '..', '..', '.cache', 'deepchat-e2e-chromium', version)
  const executablePath = join(root, 'chromium')
  const libDir = join(root, 'lib')
  const fontsDir = join(root, 'fonts')
  if (!existsSync(join(root, 'ready'))) {
    // Unpack beside the final folder and rename it into place, so two workers racing here (or a
    // run killed halfway) never leave a half-written browser behind.
    const staging = `${root}.${process.pid}.tmp`
    rmSync(staging, { recursive: true, force: true })
    mkdirSync(staging, { recursive: true })
    writeFileSync(join(staging, 'chromium'), brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))), {
      mode: 0o755
    })
    // al2023: the Amazon Linux build's libnss3/libnspr4/libexpat, the only libraries it needs
    // beyond libc; fonts: a few TrueType fonts for machines without any.
    for (const archive of ['al2023.tar.br', 'fonts.tar.br']) {
      const tarFile = join(staging, archive.replace(/\.br$/, ''))
      writeFileSync(tarFile, brotliDecompressSync(readFileSync(join(bin, archive))))
      untar({ file: tarFile, cwd: staging, sync: true })
      rmSync(tarFile)
    }
    writeFileSync(join(staging, 'ready'), '')
    try {
      renameSync(staging, root)
    } catch (error) {
      // Another worker got there first; its copy is the same.
      rmSync(staging, { recursive: true, force: true })
      if (!existsSync(join(root, 'ready'))) throw error
    }
  }
  const env: Record<string, string> = {
    // The shipped libraries always: they are the ones this build was made with.
    LD_LIBRARY_PATH: [libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':')
  }
  if (!existsSync('/etc/fonts/fonts.conf')) {
    const conf = join(root, 'fonts.local.conf')
    if (!existsSync(conf))
      writeFileSync(
        conf,
        `<?xml version="1.0"?>\n<fontconfig><dir>${fontsDir}</dir><cachedir>${join(root, 'fonts-cache')}</cachedir></fontconfig>\n`
      )
    env.FONTCONFIG_FILE = conf
  }
  return { executablePath, env }
}
