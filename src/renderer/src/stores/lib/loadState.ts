import { ref } from 'vue'
import { errorText } from '@renderer/lib/errorText'

/**
 * A store's reading of main: whether it has read once, and the last read's error (cleared by
 * the next good read). A failed read leaves the data as it was.
 */
export function useLoadState() {
  const error = ref<string | null>(null)
  const loaded = ref(false)

  async function track(read: () => Promise<void>): Promise<void> {
    try {
      await read()
      error.value = null
    } catch (e) {
      error.value = errorText(e)
    } finally {
      loaded.value = true
    }
  }

  return { error, loaded, track }
}
