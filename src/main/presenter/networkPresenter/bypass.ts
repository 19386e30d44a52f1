import { BlockList, isIP } from 'node:net'

/**
 * Which hosts skip the proxy. Entries: `*` (all), `<local>` (names without a dot), a domain
 * (`example.com` also covers `api.example.com`), `*.example.com` / `.example.com` (subdomains
 * only), an IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). Names compare
 * case-insensitively; an IP only matches IP entries, so `10.0.0.1` never matches a domain.
 */
export function bypassMatcher(entries: readonly string[]): (host: string) => boolean {
  const ranges = new BlockList()
  const domains: string[] = []
  const subdomainsOnly: string[] = []
  let all = false
  let local = false
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry === '*') all = true
    else if (entry === '<local>') local = true
    else if (addRange(ranges, entry)) continue
    else if (entry.startsWith('*.')) subdomainsOnly.push(entry.slice(1))
    else if (entry.startsWith('.')) subdomainsOnly.push(entry)
    else domains.push(entry)
  }
  return (rawHost) => {
    if (all) return true
    const host = rawHost
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
    const family = isIP(host)
    if (family) return ranges.check(host, family === 4 ? 'ipv4' : 'ipv6')
    if (local && !host.includes('.')) return true
    if (domains.some((d) => host === d || host.endsWith(`.${d}`))) return true
    return subdomainsOnly.some((suffix) => host.endsWith(suffix) && host.length > suffix.length)
  }
}

/** Adds an IP or CIDR entry; false for anything else (a name). */
function addRange(ranges: BlockList, entry: string): boolean {
  const [address, prefixText, ...rest] = entry.replace(/^\[|\]$/g, '').split('/')
  if (rest.length) return false
  const family = isIP(address)
  if (!family) return false
  const type = family === 4 ? 'ipv4' : 'ipv6'
  if (prefixText === undefined) {
    ranges.addAddress(address, type)
    return true
  }
  const prefix = Number(prefixText)
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) return false
  ranges.addSubnet(address, prefix, type)
  return true
}
