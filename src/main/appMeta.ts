// Injected by electron-vite / vitest `define`; falls back for plain tsc.
declare const __APP_VERSION__: string | undefined

export const APP_NAME = 'DeepChat Desk'
export const APP_VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0-dev'
