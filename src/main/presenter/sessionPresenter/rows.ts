import type { Workspaces } from './workspaces'
import { readStoredBlock, unreadableBlock } from '@shared/types/blocks'
import {
  GenerationSettings,
  PermissionMode,
  SubagentMeta,
  UserMessageContent,
  type MessageBlock,
  type MessageRecord,
  type PendingInteraction,
  type SessionRecord
} from '@shared/types/session'

export interface SessionRow {
  id: string
  kind: 'regular' | 'subagent'
  parent_session_id: string | null
  tape_id: string
  title: string
  workspace_dir: string | null
  provider_id: string | null
  model_id: string | null
  permission_mode: string
  generation_settings_json: string
  subagent_meta_json: string | null
  pinned: number
  status: SessionRecord['status']
  created_at: number
  updated_at: number
  last_activity_at: number
}

export interface MessageRow {
  id: string
  session_id: string
  order_seq: number
  role: MessageRecord['role']
  status: MessageRecord['status']
  content_json: string | null
  metadata_json: string
  tape_entry_id: number | null
  revision: number
  created_at: number
  updated_at: number
}

export interface BlockRow {
  id: string
  message_id: string
  block_index: number
  /** Checked by the schema; read as text, since a row may come from another build. */
  kind: string
  status: string
  text: string
  tool_call_json: string | null
  data_json: string | null
  created_at: number
  updated_at: number
}

export interface InteractionRow {
  id: string
  session_id: string
  message_id: string
  block_id: string | null
  tool_call_id: string | null
  kind: PendingInteraction['kind']
  status: PendingInteraction['status']
  request_json: string
  response_json: string | null
  created_at: number
  resolved_at: number | null
}

/** Stored JSON written by an older or broken build must not break reading a session. */
function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Sessions made before scratch folders existed have no folder stored: they get their scratch folder. */
export function toSession(
  row: SessionRow,
  workspaces: Pick<Workspaces, 'scratchDirOf' | 'isScratch'>
): SessionRecord {
  const workspaceDir = row.workspace_dir ?? workspaces.scratchDirOf(row.id)
  const settings = GenerationSettings.safeParse(parseJson(row.generation_settings_json) ?? {})
  const meta = row.subagent_meta_json ? SubagentMeta.safeParse(parseJson(row.subagent_meta_json)) : null
  return {
    id: row.id,
    kind: row.kind,
    parentSessionId: row.parent_session_id,
    tapeId: row.tape_id,
    title: row.title,
    workspaceDir,
    workspaceIsScratch: workspaces.isScratch(workspaceDir),
    providerId: row.provider_id,
    modelId: row.model_id,
    permissionMode: PermissionMode.parse(row.permission_mode),
    generationSettings: settings.success ? settings.data : {},
    subagentMeta: meta?.success ? meta.data : null,
    pinned: row.pinned === 1,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastActivityAt: row.last_activity_at
  }
}

/** A stored row is read leniently: a block an older build wrote never breaks loading its chat. */
export function toBlock(row: BlockRow): MessageBlock {
  const toolCall = parseJson(row.tool_call_json)
  const data = parseJson(row.data_json)
  const raw = {
    id: row.id,
    kind: row.kind,
    status: row.status,
    text: row.text,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(toolCall !== null ? { toolCall } : {}),
    ...(data !== null ? { data } : {})
  }
  return (
    readStoredBlock(raw) ??
    unreadableBlock({ id: row.id, text: row.text, createdAt: row.created_at, updatedAt: row.updated_at })
  )
}

export function toMessage(row: MessageRow, blocks: MessageBlock[]): MessageRecord {
  const content = row.content_json ? UserMessageContent.safeParse(parseJson(row.content_json)) : null
  const metadata = parseJson(row.metadata_json)
  return {
    id: row.id,
    sessionId: row.session_id,
    orderSeq: row.order_seq,
    role: row.role,
    status: row.status,
    content: content?.success ? content.data : null,
    blocks,
    metadata: metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : {},
    tapeEntryId: row.tape_entry_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}

export function toInteraction(row: InteractionRow): PendingInteraction {
  const asObject = (text: string | null) => {
    const value = parseJson(text)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null
  }
  return {
    id: row.id,
    sessionId: row.session_id,
    messageId: row.message_id,
    blockId: row.block_id,
    toolCallId: row.tool_call_id,
    kind: row.kind,
    status: row.status,
    request: asObject(row.request_json) ?? {},
    response: asObject(row.response_json),
    createdAt: row.created_at,
    resolvedAt: row.resolved_at
  }
}
