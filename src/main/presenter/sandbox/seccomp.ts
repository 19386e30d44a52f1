import { endianness } from 'node:os'

/**
 * The seccomp filter bwrap loads into every sandboxed command (`--seccomp FD`): a classic-BPF
 * program over `struct seccomp_data`. A mount cannot keep a Unix socket out of reach (connect()
 * needs no write access to it, and `/` is shown read-only), so the filter refuses the sockets
 * themselves:
 *
 * - `socket()` only for the allowed families (IPv4, IPv6, netlink; the network namespace is
 *   empty); AF_UNIX, AF_VSOCK (the VM host) and every other family fail with EACCES.
 * - `socketpair()` only for stream and seqpacket pairs (node's, python's and git's pipes and IPC),
 *   which are born connected and cannot be pointed elsewhere; a datagram pair could `sendto()`
 *   any socket path.
 * - io_uring (which creates sockets without the syscall), i386's `socketcall` multiplexer (its
 *   arguments sit in memory the filter cannot read) and x32 system calls fail.
 * - A system call from an architecture this filter does not know fails, whatever it is.
 */

// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6].
const OFFSET_NR = 0
const OFFSET_ARCH = 4
/** Low 32 bits of args[n] (the int arguments this filter reads). */
const argLow = (n: number): number => 16 + n * 8 + (endianness() === 'LE' ? 0 : 4)

const BPF_LD_W_ABS = 0x20
const BPF_JEQ_K = 0x15
const BPF_JSET_K = 0x45
const BPF_RET_K = 0x06
const BPF_ALU_AND_K = 0x54
const MAX_JUMP = 255

const SECCOMP_RET_ALLOW = 0x7fff0000
const SECCOMP_RET_ERRNO = 0x00050000
const EACCES = 13

const AF_INET = 2
const AF_INET6 = 10
const AF_NETLINK = 16
export const ALLOWED_SOCKET_FAMILIES = [AF_INET, AF_INET6, AF_NETLINK]
const SOCK_STREAM = 1
const SOCK_SEQPACKET = 5
const SOCK_TYPE_MASK = 0xf
const X32_SYSCALL_BIT = 0x40000000

interface ArchSyscalls {
  audit: number
  socket: number
  socketpair: number
  /** Numbers refused outright. */
  refused: number[]
  /** x86_64 only: refuse x32 numbers, which reach the same kernel code under other numbers. */
  refuseX32?: boolean
}

const IO_URING_SETUP = 425

/** Syscall numbers per audit architecture: the 64-bit hosts the app ships for and their 32-bit compat modes. */
const ARCHES: Record<string, ArchSyscalls> = {
  x86_64: { audit: 0xc000003e, socket: 41, socketpair: 53, refused: [IO_URING_SETUP], refuseX32: true },
  i386: { audit: 0x40000003, socket: 359, socketpair: 360, refused: [IO_URING_SETUP, 102] },
  aarch64: { audit: 0xc00000b7, socket: 198, socketpair: 199, refused: [IO_URING_SETUP] },
  arm: { audit: 0x40000028, socket: 281, socketpair: 288, refused: [IO_URING_SETUP] }
}

/** The socket guard this host can have: seccomp on x86_64 and arm64 Linux. */
export function seccompSupported(arch: string = process.arch): boolean {
  return arch === 'x64' || arch === 'arm64'
}

type Label = string
type Instruction =
  | { op: 'ld'; offset: number }
  | { op: 'and'; mask: number }
  | { op: 'jeq' | 'jset'; k: number; then: Label; else?: Label }
  | { op: 'ret'; value: number }
  | { op: 'label'; name: Label }

let assembled: Buffer | undefined

/** The filter program, as the bytes of `struct sock_filter[]` in this machine's byte order (built once). */
export function socketGuardFilter(): Buffer {
  assembled ??= buildFilter()
  return assembled
}

function buildFilter(): Buffer {
  const allow: Instruction = { op: 'ret', value: SECCOMP_RET_ALLOW }
  const refuse: Instruction = { op: 'ret', value: SECCOMP_RET_ERRNO | EACCES }
  const program: Instruction[] = [{ op: 'ld', offset: OFFSET_ARCH }]
  for (const [name, arch] of Object.entries(ARCHES))
    program.push({ op: 'jeq', k: arch.audit, then: `arch-${name}` })
  program.push(refuse)
  for (const [name, arch] of Object.entries(ARCHES)) {
    program.push({ op: 'label', name: `arch-${name}` }, { op: 'ld', offset: OFFSET_NR })
    if (arch.refuseX32) program.push({ op: 'jset', k: X32_SYSCALL_BIT, then: 'refuse' })
    program.push({ op: 'jeq', k: arch.socket, then: 'socket' })
    program.push({ op: 'jeq', k: arch.socketpair, then: 'socketpair' })
    for (const nr of arch.refused) program.push({ op: 'jeq', k: nr, then: 'refuse' })
    program.push(allow)
  }
  program.push({ op: 'label', name: 'socket' }, { op: 'ld', offset: argLow(0) })
  for (const family of ALLOWED_SOCKET_FAMILIES) program.push({ op: 'jeq', k: family, then: 'allow' })
  program.push(refuse)
  program.push(
    { op: 'label', name: 'socketpair' },
    { op: 'ld', offset: argLow(1) },
    { op: 'and', mask: SOCK_TYPE_MASK }
  )
  for (const type of [SOCK_STREAM, SOCK_SEQPACKET]) program.push({ op: 'jeq', k: type, then: 'allow' })
  program.push(refuse)
  program.push({ op: 'label', name: 'allow' }, allow, { op: 'label', name: 'refuse' }, refuse)
  return assemble(program)
}

/** Resolves labels to forward jump offsets and encodes each instruction (8 bytes). */
function assemble(program: Instruction[]): Buffer {
  const positions = new Map<Label, number>()
  const code: Exclude<Instruction, { op: 'label' }>[] = []
  for (const instruction of program) {
    if (instruction.op === 'label') positions.set(instruction.name, code.length)
    else code.push(instruction)
  }
  const out = Buffer.alloc(code.length * 8)
  const le = endianness() === 'LE'
  code.forEach((instruction, i) => {
    const jump = (label: Label | undefined): number => {
      if (label === undefined) return 0
      const target = positions.get(label)
      if (target === undefined) throw new Error(`seccomp filter: unknown label ${label}`)
      const offset = target - i - 1
      if (offset < 0 || offset > MAX_JUMP) throw new Error(`seccomp filter: jump to ${label} out of range`)
      return offset
    }
    const [opcode, jt, jf, k] =
      instruction.op === 'ld'
        ? [BPF_LD_W_ABS, 0, 0, instruction.offset]
        : instruction.op === 'and'
          ? [BPF_ALU_AND_K, 0, 0, instruction.mask]
          : instruction.op === 'ret'
            ? [BPF_RET_K, 0, 0, instruction.value]
            : [
                instruction.op === 'jeq' ? BPF_JEQ_K : BPF_JSET_K,
                jump(instruction.then),
                jump(instruction.else),
                instruction.k
              ]
    const at = i * 8
    if (le) {
      out.writeUInt16LE(opcode, at)
      out.writeUInt32LE(k >>> 0, at + 4)
    } else {
      out.writeUInt16BE(opcode, at)
      out.writeUInt32BE(k >>> 0, at + 4)
    }
    out.writeUInt8(jt, at + 2)
    out.writeUInt8(jf, at + 3)
  })
  return out
}
