import { isIP } from 'node:net'
import { lookup } from 'node:dns/promises'
import { AppError } from '@shared/errors'
import { isPublicAddress } from '../networkPresenter/publicAddresses'

export { isPublicAddress }

/**
 * Refuses a host that is, or resolves to, any non-public address (every address it resolves
 * to must be public: a name with one private answer is refused).
 */
export async function assertPublicHost(hostname: string): Promise<void> {
  const bare = hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (isIP(bare)) addresses = [bare]
  else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address)
    } catch (error) {
      throw new AppError(
        'web_fetch_unreachable',
        `${hostname} could not be found (${(error as { code?: string }).code ?? 'DNS'}).`
      )
    }
  }
  const blocked = addresses.find((a) => !isPublicAddress(a))
  if (blocked !== undefined)
    throw new AppError(
      'web_fetch_private_address',
      `${hostname} is a private, loopback or local address (${blocked}); web_fetch reads only public pages unless the user allows local ones in Settings › Web search.`
    )
}
