/** Arrow keys move between tabs, as the ARIA tabs pattern expects: the index to select, or null. */
export function nextTabIndex(key: string, index: number, count: number): number | null {
  const step =
    key === 'ArrowRight'
      ? 1
      : key === 'ArrowLeft'
        ? -1
        : key === 'Home'
          ? -index
          : key === 'End'
            ? count - 1 - index
            : 0
  return step === 0 ? null : (index + step + count) % count
}
