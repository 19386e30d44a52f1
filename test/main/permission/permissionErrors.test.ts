import { describe, expect, it } from 'vitest'
import type { PermissionRequest } from '@shared/types/permission'
import { normalizePermissionMode } from '@shared/types/permission'
import { isAppError } from '@shared/errors'
import {
  CommandPermissionRequiredError,
  FilePermissionRequiredError,
  McpPermissionRequiredError,
  PermissionRequiredError,
  SettingsPermissionRequiredError,
  SettingsPermissionService,
  permissionErrorFor
} from '../../../src/main/presenter/permission'

const base: PermissionRequest = {
  type: 'read',
  tool: 't',
  server: 's',
  sessionId: 'x',
  risk: 'medium',
  reason: 'because'
}

describe('permission errors', () => {
  it.each([
    ['read', FilePermissionRequiredError],
    ['write', FilePermissionRequiredError],
    ['command', CommandPermissionRequiredError],
    ['settings', SettingsPermissionRequiredError],
    ['mcp', McpPermissionRequiredError]
  ] as const)('a %s request becomes its typed error carrying the request', (type, ErrorClass) => {
    const request = { ...base, type }
    const error = permissionErrorFor(request)
    expect(error).toBeInstanceOf(ErrorClass)
    expect(error).toBeInstanceOf(PermissionRequiredError)
    expect(error.request).toBe(request)
    expect(isAppError(error) && error.code).toBe('permission_required')
    expect(error.message).toBe('t needs approval: because')
  })

  it('settings changes always need approval and suggest a settings rule', () => {
    const request = new SettingsPermissionService().check({
      sessionId: 's1',
      tool: 'deepchat_settings_set',
      server: 'deepchat-settings',
      setting: 'theme',
      summary: 'dark'
    })
    expect(request).toMatchObject({
      type: 'settings',
      risk: 'medium',
      reason: 'Change setting theme: dark',
      suggestedRule: { kind: 'settings', pattern: 'deepchat_settings_set' }
    })
  })

  it('treats a missing or unknown mode as default', () => {
    expect(normalizePermissionMode(undefined)).toBe('default')
    expect(normalizePermissionMode('auto_approve')).toBe('default')
    expect(normalizePermissionMode(42)).toBe('default')
    expect(normalizePermissionMode('accept_edits')).toBe('accept_edits')
    expect(normalizePermissionMode('full_access')).toBe('full_access')
  })
})
