/// <reference types="vite/client" />

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}

declare const __APP_VERSION__: string

interface Window {
  /** Present only inside the Electron window (exposed by the preload). */
  deepchat?: {
    invoke(route: string, input: unknown): Promise<unknown>
    on(listener: (name: string, payload: unknown) => void): () => void
  }
}
