// Injected by electron-vite / vitest `define`; falls back for plain tsc.
declare const __APP_VERSION__: string | undefined

export const APP_NAME = 'DeepChat Desk'
export const APP_VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0-dev'
/** electron-builder's appId: Windows matches notifications to the installed app by it. */
export const APP_ID = 'app.deepchat.desk'
