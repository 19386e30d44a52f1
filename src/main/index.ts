import { runElectronApp } from './electron/app'

// Electron entry. Everything Electron-specific lives in ./electron; the rest of main runs
// under plain Node too (see ./host for the headless entry).
runElectronApp(import.meta.dirname)
