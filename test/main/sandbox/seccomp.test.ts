// The socket filter's decisions for every architecture it knows, including those this machine
// cannot run (aarch64, arm, x32): the program is run by a small classic-BPF interpreter here, and
// on the real kernel by unixSockets.test.ts.
import { describe, expect, it } from 'vitest'
import { socketGuardFilter } from '../../../src/main/presenter/sandbox/seccomp'

const ALLOW = 0x7fff0000
const EACCES = 0x00050000 | 13

const ARCH = {
  x86_64: 0xc000003e,
  i386: 0x40000003,
  aarch64: 0xc00000b7,
  arm: 0x40000028,
  riscv64: 0xc00000f3
}

/** Runs the filter over one `struct seccomp_data` (little-endian) and returns its verdict. */
function verdict(arch: number, nr: number, args: Array<number | bigint> = []): number {
  const data = Buffer.alloc(64)
  data.writeInt32LE(nr | 0, 0)
  data.writeUInt32LE(arch, 4)
  args.forEach((arg, i) => data.writeBigUInt64LE(BigInt(arg) & 0xffff_ffff_ffff_ffffn, 16 + i * 8))
  const program = socketGuardFilter()
  let accumulator = 0
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const code = program.readUInt16LE(pc * 8)
    const jt = program.readUInt8(pc * 8 + 2)
    const jf = program.readUInt8(pc * 8 + 3)
    const k = program.readUInt32LE(pc * 8 + 4)
    if (code === 0x20) accumulator = data.readUInt32LE(k)
    else if (code === 0x54) accumulator = (accumulator & k) >>> 0
    else if (code === 0x15) pc += accumulator === k ? jt : jf
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf
    else if (code === 0x06) return k
    else throw new Error(`unknown opcode ${code}`)
  }
  throw new Error('the filter fell off its end')
}

describe.skipIf(process.platform === 'win32')('socket guard filter', () => {
  it('refuses Unix and vsock sockets and allows IPv4, IPv6 and netlink, on every architecture it knows', () => {
    const socketNr = { x86_64: 41, i386: 359, aarch64: 198, arm: 281 }
    for (const [name, nr] of Object.entries(socketNr)) {
      const arch = ARCH[name as keyof typeof ARCH]
      expect(verdict(arch, nr, [1, 1, 0]), `${name} AF_UNIX`).toBe(EACCES)
      expect(verdict(arch, nr, [40, 1, 0]), `${name} AF_VSOCK`).toBe(EACCES)
      expect(verdict(arch, nr, [17, 3, 0]), `${name} AF_PACKET`).toBe(EACCES)
      for (const family of [2, 10, 16])
        expect(verdict(arch, nr, [family, 1, 0]), `${name} ${family}`).toBe(ALLOW)
    }
  })

  it('allows stream and seqpacket pairs, with flags, and refuses datagram pairs', () => {
    const SOCK_NONBLOCK_CLOEXEC = 0o4000 | 0o2000000
    for (const [name, nr] of Object.entries({ x86_64: 53, i386: 360, aarch64: 199, arm: 288 })) {
      const arch = ARCH[name as keyof typeof ARCH]
      expect(verdict(arch, nr, [1, 1 | SOCK_NONBLOCK_CLOEXEC, 0])).toBe(ALLOW)
      expect(verdict(arch, nr, [1, 5, 0])).toBe(ALLOW)
      expect(verdict(arch, nr, [1, 2, 0]), `${name} dgram pair`).toBe(EACCES)
      expect(verdict(arch, nr, [1, 2 | SOCK_NONBLOCK_CLOEXEC, 0])).toBe(EACCES)
    }
  })

  it('refuses io_uring, x32 calls, i386 socketcall and any call from an unknown architecture', () => {
    for (const arch of [ARCH.x86_64, ARCH.i386, ARCH.aarch64, ARCH.arm])
      expect(verdict(arch, 425)).toBe(EACCES)
    expect(verdict(ARCH.x86_64, 0x40000000 | 41, [2])).toBe(EACCES)
    expect(verdict(ARCH.x86_64, 0x40000000 | 0)).toBe(EACCES)
    expect(verdict(ARCH.i386, 102, [1])).toBe(EACCES)
    expect(verdict(ARCH.riscv64, 63)).toBe(EACCES)
  })

  it('allows ordinary calls, and reads only the low half of the family (the kernel takes an int)', () => {
    expect(verdict(ARCH.x86_64, 0)).toBe(ALLOW)
    expect(verdict(ARCH.x86_64, 59)).toBe(ALLOW)
    expect(verdict(ARCH.aarch64, 63)).toBe(ALLOW)
    expect(verdict(ARCH.i386, 3)).toBe(ALLOW)
    // Garbage in the upper 32 bits neither hides AF_UNIX nor turns IPv4 into a refusal.
    expect(verdict(ARCH.x86_64, 41, [0xdead_beef_0000_0001n])).toBe(EACCES)
    expect(verdict(ARCH.aarch64, 198, [0xdead_beef_0000_0002n])).toBe(ALLOW)
  })
})
