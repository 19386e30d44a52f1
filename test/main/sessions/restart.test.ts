import { describe, expect, it } from 'vitest'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'
import { useTempDirs } from '../helpers/tempDir'
import { RecordingSink } from './helpers'
import { dirname, join } from 'node:path'

const tempDir = useTempDirs()

function open(file: string) {
  const sqlite = new SqlitePresenter({ file })
  const tape = new TapePresenter({ sqlite })
  const sink = new RecordingSink()
  return {
    sqlite,
    tape,
    sink,
    sessions: new SessionPresenter({
      sqlite,
      tape,
      events: sink,
      workspaces: new Workspaces({ dataDir: dirname(file) })
    })
  }
}

describe('sessions across a restart', () => {
  it('turns a stream cut off by a crash into an error and keeps paused messages answerable', () => {
    const file = join(tempDir(), 'deepchat.db')
    const first = open(file)
    const cut = first.sessions.create({ title: 'cut' })
    first.sessions.messages.appendUserMessage(cut.id, { text: 'long answer please' })
    const streaming = first.sessions.messages.createAssistantMessage(cut.id)
    first.sessions.messages.saveStreamingBlocks(streaming.id, [
      { id: 'c', kind: 'content', status: 'pending', text: 'Part one, and' }
    ])

    const waiting = first.sessions.create({ title: 'waiting' })
    const paused = first.sessions.messages.createAssistantMessage(waiting.id)
    first.sessions.pauseMessage(paused.id, {
      interactions: [
        {
          id: 'perm-1',
          kind: 'permission',
          toolCallId: 't1',
          request: { tool: 'exec', command: 'rm -rf build' }
        }
      ]
    })
    expect(first.sessions.require(waiting.id).status).toBe('awaiting_interaction')
    expect(first.sink.named('sessions.status.changed')).toEqual([
      { sessionId: waiting.id, status: 'awaiting_interaction', version: 1 }
    ])
    expect(first.sink.named('sessions.interactions.changed')).toEqual([
      { sessionId: waiting.id, messageId: paused.id, pendingCount: 1 }
    ])
    first.tape.dispose()
    first.sqlite.close() // the process dies here: nothing was finalized

    const second = open(file)
    expect(second.sessions.messages.recoverInterrupted().map((m) => m.id)).toEqual([streaming.id])
    const recovered = second.sessions.messages.require(streaming.id)
    expect(recovered.status).toBe('error')
    expect(recovered.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['content', 'Part one, and'],
      ['error', 'sessionInterrupted']
    ])
    expect(second.sessions.messages.require(paused.id).status).toBe('awaiting_interaction')
    const answer = second.sessions.resolveInteraction('perm-1', 'granted', { scope: 'allow_once' })
    expect(answer.remaining).toBe(0)
    expect(second.sink.named('sessions.interactions.changed')).toEqual([
      { sessionId: waiting.id, messageId: paused.id, pendingCount: 0 }
    ])
    const facts = second.tape.search(waiting.tapeId, 'perm-1', { kinds: ['event'] }).map((h) => h.name)
    expect(facts.sort()).toEqual(['interaction/requested', 'interaction/resolved'])
    second.tape.dispose()
    second.sqlite.close()
  })
})
