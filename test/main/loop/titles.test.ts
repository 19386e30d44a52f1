import { describe, expect, it } from 'vitest'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { cleanTitle } from '../../../src/main/presenter/agentRuntimePresenter/titleNamer'
import { eventsOf, call, textReply, useLoopHarness } from './helpers'
import { until } from '../../helpers/until'
import { openAiBody } from '../../fixtures/llm/openAiRequest'
import { sessionsUpdated } from '@shared/contracts/events/sessions.events'
import { sessionsRename } from '@shared/contracts/routes/sessions.routes'

const harness = useLoopHarness()

describe('chat titles', () => {
  it('names a new chat with its model after the first answer, once, and tells the windows', async () => {
    const h = await harness([textReply('It is 12 degrees and cloudy.'), textReply('Yes, take one.')], {
      titleReply: '"Oslo weather today."'
    })
    const { sessionId } = await h.send('what is the weather in oslo right now?')
    expect(h.presenters.sessions.require(sessionId).title).toBe('what is the weather in oslo right now?')
    await until(() => h.presenters.sessions.require(sessionId).title === 'Oslo weather today')
    const body = openAiBody(h.llm.titleRequests[0].body)
    expect(body.model).toBe('fake-model')
    expect(body.tools).toBeUndefined()
    const prompt = JSON.stringify(body.messages)
    expect(prompt).toContain('what is the weather in oslo right now?')
    expect(prompt).toContain('It is 12 degrees and cloudy.')
    expect(
      eventsOf(h, sessionsUpdated).some((e) => e.sessionIds.includes(sessionId) && e.reason === 'updated')
    ).toBe(true)

    await h.send('should I take an umbrella?', { sessionId })
    await h.idle(sessionId) // the run and any title it asked for
    expect(h.llm.titleRequests).toHaveLength(1) // only the first answer names the chat
    expect(h.llm.generationRequests()).toHaveLength(2) // title requests are not turns
  })

  it('keeps a title the user set before the model answered, and asks nothing when the setting is off', async () => {
    const h = await harness([textReply('Sure.'), textReply('Done.')], { titleReply: 'Model title' })
    const first = await h.send('rename me before you answer')
    await call(h, sessionsRename, { sessionId: first.sessionId, title: 'My own title' })
    await h.idle(first.sessionId) // the run and the title it asked for
    expect(h.llm.titleRequests).toHaveLength(1)
    expect(h.presenters.sessions.require(first.sessionId).title).toBe('My own title')

    await call(h, configUpdateSettings, { patch: { autoTitle: false } })
    const second = await h.send('no title request for this one')
    await h.idle(second.sessionId)
    expect(h.llm.titleRequests).toHaveLength(1)
    expect(h.presenters.sessions.require(second.sessionId).title).toBe('no title request for this one')
  })

  it('cleans what models wrap titles in', () => {
    expect(cleanTitle('Title: **Trip to Kyoto**\nextra words')).toBe('Trip to Kyoto')
    expect(cleanTitle('# 京都旅行计划。')).toBe('京都旅行计划')
    expect(cleanTitle('标题：「周末菜单」')).toBe('周末菜单')
    expect(cleanTitle('   \n  ')).toBeNull()
    expect(cleanTitle('word '.repeat(30))!.length).toBeLessThanOrEqual(61)
  })
})
