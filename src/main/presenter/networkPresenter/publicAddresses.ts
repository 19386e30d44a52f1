import { BlockList, isIP } from 'node:net'
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns'

/**
 * Addresses a page may be read from without the user's leave: public unicast ones, by
 * allowlist. IPv4 minus the special ranges (RFC 6890); IPv6 only in 2000::/3 minus its special
 * blocks, with IPv4 embedded in mapped, NAT64 and 6to4 addresses judged as IPv4.
 */
const NOT_PUBLIC_V4 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4]
] as const)
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4')

const GLOBAL_V6 = new BlockList()
GLOBAL_V6.addSubnet('2000::', 3, 'ipv6')
const SPECIAL_V6 = new BlockList()
for (const [net, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20]
] as const)
  SPECIAL_V6.addSubnet(net, prefix, 'ipv6')

function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase()
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (mapped) return mapped[1]
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower)
  const parts = hex ?? sixToFour
  if (!parts) return null
  const high = parseInt(parts[1], 16)
  const low = parseInt(parts[2], 16)
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

/** Whether an address is public unicast (see above); anything that is not an IP address is not. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const family = isIP(bare)
  if (family === 4) return !NOT_PUBLIC_V4.check(bare, 'ipv4')
  if (family !== 6) return false
  const v4 = embeddedV4(bare)
  if (v4) return isPublicAddress(v4)
  return GLOBAL_V6.check(bare, 'ipv6') && !SPECIAL_V6.check(bare, 'ipv6')
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number
) => void

/**
 * A `lookup` for connections (net/tls `lookup` option) that connects only to public addresses:
 * every address the name resolves to must be public, checked at the moment of connecting, so a
 * name cannot pass an earlier check and then resolve elsewhere (DNS rebinding).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, [])
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address))
    if (blocked || addresses.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to a private, loopback or local address (${blocked?.address ?? 'none'}): only public addresses are reached here.`
      )
      refused.code = 'ENOTPUBLIC'
      return callback(refused, [])
    }
    if (options.all) return callback(null, addresses)
    callback(null, addresses[0].address, addresses[0].family)
  })
}
