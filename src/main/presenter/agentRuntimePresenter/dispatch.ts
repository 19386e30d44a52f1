import type { MCPToolDefinition, ToolFacts } from '@shared/types/tools'
import type { ActionBlockData, QuestionSpec, ToolCallBlockData } from '@shared/types/blocks'
import type { InteractionRequest } from '../sessionPresenter'
import { PermissionRequiredError } from '../permission/errors'
import type { ToolCallResult, ToolPresenter, ToolSessionContext } from '../toolPresenter'
import type { BlockAccumulator, CompletedToolCall } from './blockAccumulator'
import { addToolImageBlocks } from './toolImages'
import { resultItems, resultText } from './conversation'

export const DENIED_RESULT = 'User denied the request.'

export type DispatchTools = Pick<ToolPresenter, 'preCheckToolPermission' | 'callTool'>

export interface DispatchInput {
  calls: readonly CompletedToolCall[]
  acc: BlockAccumulator
  definitions: readonly MCPToolDefinition[]
  ctx: ToolSessionContext & { signal: AbortSignal }
  newId: () => string
}

/**
 * Runs one round's tool calls, by the facts of each call's tool (`definition.facts`). Every call
 * is pre-checked first; calls that need the user — a permission, or a tool whose interaction is
 * a question — become interactions (an `action` block each) and wait; the others run:
 * consecutive parallel-safe calls together, the rest one by one in the model's order. Results
 * land on the calls' blocks, so their order is the model's order whatever finished first.
 */
export async function dispatchRound(
  tools: DispatchTools,
  input: DispatchInput
): Promise<InteractionRequest[]> {
  const interactions: InteractionRequest[] = []
  const runnable: CompletedToolCall[] = []
  for (const call of input.calls) {
    if (input.ctx.signal.aborted) break
    if (factsOf(call.name, input.definitions)?.interaction === 'question') {
      const result = await tools.callTool(mcpCall(call), input.ctx)
      if (result.rawData.interaction)
        interactions.push(openQuestion(input, call, result.rawData.interaction.question))
      else applyResult(input.acc, call, result)
      continue
    }
    try {
      const verdict = await tools.preCheckToolPermission(mcpCall(call), input.ctx)
      if (verdict.status === 'allowed') runnable.push(call)
      else
        setResult(
          input.acc,
          call.blockId,
          verdict.status === 'denied' ? `Error: ${verdict.reason}` : `Error: ${verdict.message}`,
          true
        )
    } catch (error) {
      if (error instanceof PermissionRequiredError) interactions.push(openPermission(input, call, error))
      else
        setResult(
          input.acc,
          call.blockId,
          `Error: ${error instanceof Error ? error.message : String(error)}`,
          true
        )
    }
  }
  for (const group of groupByParallelSafe(runnable, input.definitions)) {
    if (input.ctx.signal.aborted) break
    if (group.parallel) {
      const found = await Promise.all(group.calls.map((call) => runCall(tools, input, call)))
      interactions.push(...found.filter((i): i is InteractionRequest => !!i))
    } else {
      for (const call of group.calls) {
        if (input.ctx.signal.aborted) break
        const interaction = await runCall(tools, input, call)
        if (interaction) interactions.push(interaction)
      }
    }
  }
  return interactions
}

/** Runs one allowed call; a permission that appeared meanwhile still becomes an interaction. */
export async function runCall(
  tools: DispatchTools,
  input: Omit<DispatchInput, 'calls' | 'definitions'>,
  call: CompletedToolCall
): Promise<InteractionRequest | null> {
  input.acc.setStatus(call.blockId, 'loading')
  try {
    const onProgress = (p: { progress: number; total?: number; message?: string }) => {
      const block = input.acc.getOf(call.blockId, 'tool_call')
      const text = [p.message, p.total ? `${p.progress}/${p.total}` : String(p.progress)]
        .filter(Boolean)
        .join(' · ')
      if (block?.status === 'loading')
        input.acc.update(call.blockId, 'tool_call', { data: { ...block.data, progress: text } })
    }
    const result = await untilAborted(
      tools.callTool(mcpCall(call), { ...input.ctx, onProgress }),
      input.ctx.signal
    )
    if (!result || input.ctx.signal.aborted) {
      input.acc.setStatus(call.blockId, 'cancelled')
      return null
    }
    applyResult(input.acc, call, result)
    return null
  } catch (error) {
    if (error instanceof PermissionRequiredError) return openPermission(input, call, error)
    setResult(
      input.acc,
      call.blockId,
      `Error: ${error instanceof Error ? error.message : String(error)}`,
      true
    )
    return null
  }
}

/**
 * Stop must not wait for a tool that is slow to notice the signal: the tool still gets the
 * signal and cleans up (kills its processes, cancels its MCP request) in the background.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) {
    work.catch(() => {})
    return Promise.resolve(null)
  }
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        if (signal.aborted) resolve(null)
        else reject(error)
      }
    )
  })
}

/** The facts of the tool the model called by `name`; none for a name it was not given. */
function factsOf(name: string, definitions: readonly MCPToolDefinition[]): ToolFacts | undefined {
  return definitions.find((d) => d.function.name === name)?.facts
}

export function isParallelSafe(name: string, definitions: readonly MCPToolDefinition[]): boolean {
  return factsOf(name, definitions)?.parallelSafe === true
}

function groupByParallelSafe(calls: readonly CompletedToolCall[], definitions: readonly MCPToolDefinition[]) {
  const groups: { parallel: boolean; calls: CompletedToolCall[] }[] = []
  for (const call of calls) {
    const parallel = isParallelSafe(call.name, definitions)
    const last = groups[groups.length - 1]
    if (last && last.parallel === parallel && parallel) last.calls.push(call)
    else groups.push({ parallel, calls: [call] })
  }
  return groups
}

export function setResult(
  acc: BlockAccumulator,
  blockId: string,
  response: string,
  isError: boolean,
  data?: ToolCallBlockData
): void {
  const block = acc.getOf(blockId, 'tool_call')
  if (!block) return
  acc.update(blockId, 'tool_call', {
    status: isError ? 'error' : 'success',
    toolCall: { ...block.toolCall, response, isError },
    ...(data ? { data: { ...block.data, ...data } } : {})
  })
}

function applyResult(acc: BlockAccumulator, call: CompletedToolCall, result: ToolCallResult): void {
  const items = resultItems(result.content)
  const data: ToolCallBlockData = {
    ...(result.rawData.spilled ? { spilledPath: result.rawData.spilled.path } : {}),
    ...(items.length ? { items } : {})
  }
  setResult(acc, call.blockId, resultText(result.content), result.rawData.isError, data)
  addToolImageBlocks(acc, call.id, result)
}

function mcpCall(call: CompletedToolCall) {
  return { id: call.id, name: call.name, arguments: call.arguments }
}

function openPermission(
  input: Pick<DispatchInput, 'acc' | 'newId'>,
  call: CompletedToolCall,
  error: PermissionRequiredError
): InteractionRequest {
  const id = input.newId()
  const data: ActionBlockData = {
    actionType: 'permission',
    interactionId: id,
    toolCallId: call.id,
    toolName: call.name,
    request: error.request
  }
  return openAction(input.acc, call, id, 'permission', data)
}

function openQuestion(
  input: Pick<DispatchInput, 'acc' | 'newId'>,
  call: CompletedToolCall,
  question: QuestionSpec
): InteractionRequest {
  const id = input.newId()
  const data: ActionBlockData = { actionType: 'question', interactionId: id, toolCallId: call.id, question }
  return openAction(input.acc, call, id, 'question', data)
}

function openAction(
  acc: BlockAccumulator,
  call: CompletedToolCall,
  id: string,
  kind: 'permission' | 'question',
  data: ActionBlockData
): InteractionRequest {
  const blockId = `action-${id}`
  const callBlock = acc.getOf(call.blockId, 'tool_call')
  // The call waits (status stays `pending`) until the user answers: never a fake `success`.
  acc.update(call.blockId, 'tool_call', {
    status: 'pending',
    data: { ...callBlock?.data, interactionId: id }
  })
  acc.add({ id: blockId, kind: 'action', status: 'pending', text: '', data })
  return { id, kind, blockId, toolCallId: call.id, request: data }
}
