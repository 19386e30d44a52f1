import { computed, reactive, ref } from 'vue'
import { errorText } from './errorText'

export interface RunOptions<T> {
  /** Shown once the action succeeded; a function gets the action's result. */
  success?: string | ((result: T) => string)
  /** Names the action (a row, a button) so `isBusy(key)` tells which one is running. */
  key?: string
}

/**
 * The busy / error / success scaffolding of a form or dialog: `run(action)` clears the last
 * outcome, marks the form busy while the action runs, and keeps its success text or its error
 * text. Use it as one object (`form.busy` in the template), not destructured.
 */
export function useFormAction(options: { errorText?: (error: unknown) => string } = {}) {
  const running = ref<string[]>([])
  const error = ref<string | null>(null)
  const success = ref<string | null>(null)

  /** Runs `action`; resolves to whether it succeeded (its error is kept, never rethrown). */
  async function run<T>(action: () => Promise<T>, opts: RunOptions<T> = {}): Promise<boolean> {
    const key = opts.key ?? ''
    running.value = [...running.value, key]
    error.value = null
    success.value = null
    try {
      const result = await action()
      if (typeof opts.success === 'function') success.value = opts.success(result)
      else if (opts.success !== undefined) success.value = opts.success
      return true
    } catch (e) {
      error.value = (options.errorText ?? errorText)(e)
      return false
    } finally {
      const index = running.value.indexOf(key)
      running.value = running.value.filter((_, i) => i !== index)
    }
  }

  return reactive({
    busy: computed(() => running.value.length > 0),
    error,
    success,
    run,
    isBusy: (key: string) => running.value.includes(key),
    clear(): void {
      error.value = null
      success.value = null
    }
  })
}

export type FormAction = ReturnType<typeof useFormAction>
