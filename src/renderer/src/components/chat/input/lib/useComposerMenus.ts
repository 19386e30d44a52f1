import { computed, ref, type Ref } from 'vue'
import { fillTemplate, templateVariables } from '@shared/promptTemplate'
import type { McpPromptView, McpResourceTemplateView } from '@shared/types/mcp'
import type { SavedPrompt } from '@shared/types/library'
import { errorText } from '@renderer/lib/errorText'
import { useComposerStore } from '@renderer/stores/composer'
import { useLibraryStore } from '@renderer/stores/library'
import { useMcpStore } from '@renderer/stores/mcp'
import type { ComposerMenuItem } from '../ComposerMenu.vue'
import type { DialogField } from '../FieldsDialog.vue'
import {
  fillUriTemplate,
  findTrigger,
  rankItems,
  replaceTrigger,
  templateFields,
  type Trigger
} from './triggers'

type Choice =
  | { kind: 'saved'; prompt: SavedPrompt }
  | { kind: 'mcpPrompt'; prompt: McpPromptView }
  | { kind: 'resource'; serverId: string; uri: string; name: string }
  | { kind: 'template'; template: McpResourceTemplateView }

/** What the fields dialog is asking for, and what happens with the answers. */
export interface PendingFields {
  title: string
  fields: DialogField[]
  submitLabel: string
  submit: (values: Record<string, string>) => Promise<void>
}

/**
 * The composer's `/` menu (saved prompts, then MCP prompts) and `@` menu (MCP resources and
 * resource templates): which one is open for the text at the caret, its items, the keyboard,
 * and what choosing an item does to the text and the attachments.
 */
export function useComposerMenus(options: {
  text: Ref<string>
  labels: (key: string, values?: Record<string, unknown>) => string
  focus: (caret: number) => void
}) {
  const composer = useComposerStore()
  const library = useLibraryStore()
  const mcp = useMcpStore()
  const trigger = ref<Trigger | null>(null)
  const active = ref(0)
  const fields = ref<PendingFields | null>(null)
  const fieldsBusy = ref(false)
  const fieldsError = ref<string | null>(null)
  const menuError = ref<string | null>(null)
  let catalogLoaded = false
  const choices = new Map<string, Choice>()
  const t = options.labels

  const serverName = (id: string) => mcp.servers.find((s) => s.id === id)?.name ?? id

  const items = computed<ComposerMenuItem[]>(() => {
    choices.clear()
    const current = trigger.value
    if (!current) return []
    const out: ComposerMenuItem[] = []
    const add = (item: ComposerMenuItem, choice: Choice) => {
      choices.set(item.key, choice)
      out.push(item)
    }
    if (current.kind === 'slash') {
      for (const prompt of rankItems(library.prompts, current.query, (p) => [p.name, p.description]))
        add(
          {
            key: `saved:${prompt.id}`,
            label: `/${prompt.name}`,
            detail: prompt.description,
            group: t('composer.slash.saved')
          },
          { kind: 'saved', prompt }
        )
      for (const prompt of rankItems(composer.mcpPrompts, current.query, (p) => [p.name, p.title ?? ''])) {
        add(
          {
            key: `mcp:${prompt.serverId}:${prompt.name}`,
            label: `/${prompt.name}`,
            detail: [serverName(prompt.serverId), prompt.description].filter(Boolean).join(' · '),
            group: t('composer.slash.mcp')
          },
          { kind: 'mcpPrompt', prompt }
        )
      }
    } else {
      for (const r of rankItems(composer.mcpResources, current.query, (r) => [r.name, r.title ?? '', r.uri]))
        add(
          {
            key: `res:${r.serverId}:${r.uri}`,
            label: r.title ?? r.name,
            detail: `${serverName(r.serverId)} · ${r.uri}`,
            group: t('composer.mention.resources')
          },
          { kind: 'resource', serverId: r.serverId, uri: r.uri, name: r.name }
        )
      for (const tpl of rankItems(composer.mcpTemplates, current.query, (r) => [
        r.name,
        r.title ?? '',
        r.uriTemplate
      ]))
        add(
          {
            key: `tpl:${tpl.serverId}:${tpl.uriTemplate}`,
            label: tpl.title ?? tpl.name,
            detail: `${serverName(tpl.serverId)} · ${tpl.uriTemplate}`,
            group: t('composer.mention.templates')
          },
          { kind: 'template', template: tpl }
        )
    }
    return out
  })

  /** Re-reads the trigger after each edit or caret move. */
  function update(caret: number): void {
    const next = findTrigger(options.text.value, caret)
    if (next?.kind !== trigger.value?.kind || next?.query !== trigger.value?.query) active.value = 0
    trigger.value = next
    if (next && !catalogLoaded) {
      catalogLoaded = true
      void Promise.all([
        library.load().catch(() => undefined),
        composer.loadMcpCatalog(),
        mcp.servers.length ? null : mcp.refresh().catch(() => undefined)
      ])
    }
  }

  /** Keys while a menu is open; true when the key was the menu's. */
  function onKey(event: KeyboardEvent): boolean {
    if (!trigger.value) return false
    const count = items.value.length
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count) active.value = (active.value + (event.key === 'ArrowDown' ? 1 : count - 1)) % count
      return true
    }
    if ((event.key === 'Enter' || event.key === 'Tab') && count && !event.shiftKey) {
      void pick(items.value[active.value])
      return true
    }
    if (event.key === 'Escape') {
      trigger.value = null
      return true
    }
    return false
  }

  async function pick(item: ComposerMenuItem): Promise<void> {
    const choice = choices.get(item.key)
    const at = trigger.value
    if (!choice || !at) return
    trigger.value = null
    menuError.value = null
    if (choice.kind === 'saved') return insertSaved(choice.prompt, at)
    if (choice.kind === 'mcpPrompt') return insertMcpPrompt(choice.prompt, at)
    setText(replaceTrigger(options.text.value, at, ''), at.start)
    if (choice.kind === 'resource') return composer.attachResource(choice.serverId, choice.uri, choice.name)
    const tpl = choice.template
    ask({
      title: t('composer.fields.templateTitle', { name: tpl.title ?? tpl.name }),
      fields: templateFields(tpl.uriTemplate).map((name) => ({ name, required: true })),
      submitLabel: t('composer.fields.attach'),
      submit: (values) => composer.attachResource(tpl.serverId, fillUriTemplate(tpl.uriTemplate, values))
    })
  }

  function insertSaved(prompt: SavedPrompt, at: Trigger): void {
    const variables = templateVariables(prompt.body)
    const insert = (text: string) =>
      setText(replaceTrigger(options.text.value, at, text), at.start + text.length)
    if (variables.length === 0) return insert(prompt.body)
    ask({
      title: t('composer.fields.promptTitle', { name: prompt.name }),
      fields: variables.map((name) => ({ name, required: false })),
      submitLabel: t('composer.fields.insert'),
      submit: async (values) => insert(fillTemplate(prompt.body, values))
    })
  }

  async function insertMcpPrompt(prompt: McpPromptView, at: Trigger): Promise<void> {
    const expand = async (args: Record<string, string>) => {
      const text = await composer.expandMcpPrompt(prompt.serverId, prompt.name, args)
      setText(replaceTrigger(options.text.value, at, text), at.start + text.length)
    }
    if (prompt.arguments.length === 0) {
      try {
        await expand({})
      } catch (error) {
        menuError.value = errorText(error)
      }
      return
    }
    ask({
      title: t('composer.fields.promptTitle', { name: prompt.title ?? prompt.name }),
      fields: prompt.arguments.map((a) => ({
        name: a.name,
        description: a.description,
        required: a.required
      })),
      submitLabel: t('composer.fields.insert'),
      submit: (values) => expand(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')))
    })
  }

  function ask(pending: PendingFields): void {
    fieldsError.value = null
    fields.value = pending
  }

  async function submitFields(values: Record<string, string>): Promise<void> {
    if (!fields.value) return
    fieldsBusy.value = true
    fieldsError.value = null
    try {
      await fields.value.submit(values)
      fields.value = null
    } catch (error) {
      fieldsError.value = errorText(error)
    } finally {
      fieldsBusy.value = false
    }
  }

  function setText(text: string, caret: number): void {
    options.text.value = text
    options.focus(caret)
  }

  return {
    trigger,
    items,
    active,
    fields,
    fieldsBusy,
    fieldsError,
    menuError,
    update,
    onKey,
    pick,
    submitFields,
    close: () => (trigger.value = null),
    closeFields: () => (fields.value = null)
  }
}

export type ComposerMenus = ReturnType<typeof useComposerMenus>
