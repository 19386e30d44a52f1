import { z } from 'zod'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** Wall-clock parts of `date` in `timeZone`, plus its UTC offset in minutes. */
type ZonedParts = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'weekday', string> & {
  offsetMinutes: number
}

function zonedParts(date: Date, timeZone: string): ZonedParts {
  const parts: Record<string, string> = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long'
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value])
  )
  const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second)
  const offsetMinutes = Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000)
  return { ...(parts as Omit<ZonedParts, 'offsetMinutes'>), offsetMinutes }
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

function describe(date: Date, timeZone: string) {
  const p = zonedParts(date, timeZone)
  return {
    timezone: timeZone,
    datetime: `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${formatOffset(p.offsetMinutes)}`,
    weekday: p.weekday,
    utcOffset: formatOffset(p.offsetMinutes)
  }
}

/** Finds the instant whose wall-clock time in `timeZone` is `hh:mm` on today's date there. */
function instantFor(time: string, timeZone: string, now: Date): Date {
  const [hour, minute] = time.split(':').map(Number)
  const today = zonedParts(now, timeZone)
  const guess =
    Date.UTC(+today.year, +today.month - 1, +today.day, hour, minute) - today.offsetMinutes * 60_000
  // One correction step handles a DST change between now and the target time.
  const corrected =
    guess - (zonedParts(new Date(guess), timeZone).offsetMinutes - today.offsetMinutes) * 60_000
  return new Date(corrected)
}

const zone = z.string().min(1).describe('IANA time zone such as "Europe/Paris" or "UTC"')

/**
 * Built-in server `deepchat-time`: the current time in any zone and time-zone conversion —
 * things a model gets wrong without a clock.
 */
export function createTimeServer(now: () => Date = () => new Date()): McpServer {
  const server = new McpServer({ name: 'deepchat-time', version: '1.0.0' })
  const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone

  server.registerTool(
    'current_time',
    {
      title: 'Current time',
      description: `Current date and time in a time zone (default: the user's zone, ${localZone}).`,
      inputSchema: { timezone: zone.optional() },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    async ({ timezone }) => {
      const target = timezone ?? localZone
      if (!isTimeZone(target))
        return { isError: true, content: [{ type: 'text', text: `Unknown time zone: ${target}` }] }
      const result = describe(now(), target)
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result }
    }
  )

  server.registerTool(
    'convert_time',
    {
      title: 'Convert time',
      description: 'Converts a wall-clock time (HH:MM, today) from one time zone to another.',
      inputSchema: {
        time: z.string().regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'use 24-hour HH:MM'),
        from_timezone: zone,
        to_timezone: zone
      },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    async ({ time, from_timezone, to_timezone }) => {
      for (const z of [from_timezone, to_timezone]) {
        if (!isTimeZone(z))
          return { isError: true, content: [{ type: 'text', text: `Unknown time zone: ${z}` }] }
      }
      const instant = instantFor(time, from_timezone, now())
      const result = { source: describe(instant, from_timezone), target: describe(instant, to_timezone) }
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result }
    }
  )
  return server
}
