// The Node version the desktop tooling asks for. The app, its tests and the headless host run on
// Node 20.19+ (package.json engines); Electron 45's binary downloader (@electron/get 5) and
// electron-builder's native rebuild (@electron/rebuild 4) declare Node 22.12+.
export const DESKTOP_TOOLING_NODE = '22.12.0'

function newer(a, b) {
  const [x, y] = [a, b].map((v) => v.replace(/^v/, '').split('.').map(Number))
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0)
  return true
}

/** A clear message when `version` is too old for `what`, else null. */
export function desktopToolingProblem(version, what) {
  if (newer(version, DESKTOP_TOOLING_NODE)) return null
  return (
    `${what} needs Node ${DESKTOP_TOOLING_NODE} or newer (electron-builder's native rebuild and Electron's ` +
    `downloader ask for it); this is Node ${version.replace(/^v/, '')}. ` +
    `Use nvm/fnm, or run it once with: npx -y -p node@22 npm run dist`
  )
}
