/**
 * Scores how well a file path matches a loose query like `chatstore` or `tool presenter`.
 * Every token must appear in order as a subsequence of the path; matches in the file name, at
 * word starts and in runs score higher, long paths a little lower. Returns null for no match.
 */
export function fuzzyPathScore(path: string, query: string): number | null {
  return createFuzzyMatcher(query)(path)
}

/** The query prepared once; the returned function scores one path. */
export function createFuzzyMatcher(query: string): (path: string) => number | null {
  const tokens = query
    .toLowerCase()
    .split(/[\s/\\]+/)
    .filter(Boolean)
  const joined = tokens.join('')
  return (path) => {
    if (tokens.length === 0) return null
    const lowerPath = path.toLowerCase()
    const baseStart = lowerPath.lastIndexOf('/') + 1
    let total = 0
    for (const token of tokens) {
      const score = tokenScore(path, lowerPath, baseStart, token)
      if (score === null) return null
      total += score
    }
    const baseName = lowerPath.slice(baseStart)
    const dot = baseName.lastIndexOf('.')
    const stem = dot > 0 ? baseName.slice(0, dot) : baseName
    if (stem === joined) total += 200
    else if (baseName.includes(joined)) total += 120
    else if (lowerPath.includes(joined)) total += 60
    return total - path.length * 0.2
  }
}

function tokenScore(path: string, lower: string, baseStart: number, token: string): number | null {
  // Prefer a match inside the file name: search from the base name first, then the whole path.
  return (
    subsequenceScore(path, lower, token, baseStart, baseStart) ??
    subsequenceScore(path, lower, token, 0, baseStart)
  )
}

function subsequenceScore(
  path: string,
  lower: string,
  token: string,
  from: number,
  baseStart: number
): number | null {
  let score = 0
  let previous = -2
  let position = from
  for (const char of token) {
    const index = lower.indexOf(char, position)
    if (index === -1) return null
    score += 1
    if (index === previous + 1) score += 5
    if (isWordStart(path, index)) score += 8
    if (index >= baseStart) score += 3
    if (previous >= 0 && index - previous > 1) score -= Math.min(3, (index - previous) * 0.1)
    previous = index
    position = index + 1
  }
  return score
}

function isWordStart(path: string, index: number): boolean {
  if (index === 0) return true
  const before = path[index - 1]
  const char = path[index]
  if ('/\\_-. '.includes(before)) return true
  return char >= 'A' && char <= 'Z' && before >= 'a' && before <= 'z'
}
