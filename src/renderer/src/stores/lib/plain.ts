/** Route inputs leave as plain data: Vue proxies cannot cross Electron's structured clone. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
