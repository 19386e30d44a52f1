import { AppError } from '@shared/errors'
import type { PermissionRequest } from '@shared/types/permission'

/**
 * Thrown when a tool needs the user's approval. The chat loop turns it into a pending
 * interaction; it carries the whole request so nothing is re-derived from a message string.
 */
export class PermissionRequiredError extends AppError {
  constructor(readonly request: PermissionRequest) {
    super('permission_required', `${request.tool} needs approval: ${request.reason}`, request)
    this.name = 'PermissionRequiredError'
  }
}

export class FilePermissionRequiredError extends PermissionRequiredError {
  constructor(request: PermissionRequest) {
    super(request)
    this.name = 'FilePermissionRequiredError'
  }
}

export class CommandPermissionRequiredError extends PermissionRequiredError {
  constructor(request: PermissionRequest) {
    super(request)
    this.name = 'CommandPermissionRequiredError'
  }
}

export class SettingsPermissionRequiredError extends PermissionRequiredError {
  constructor(request: PermissionRequest) {
    super(request)
    this.name = 'SettingsPermissionRequiredError'
  }
}

export class McpPermissionRequiredError extends PermissionRequiredError {
  constructor(request: PermissionRequest) {
    super(request)
    this.name = 'McpPermissionRequiredError'
  }
}

export class NetworkPermissionRequiredError extends PermissionRequiredError {
  constructor(request: PermissionRequest) {
    super(request)
    this.name = 'NetworkPermissionRequiredError'
  }
}

/** The typed error for a request, chosen by its type. */
export function permissionErrorFor(request: PermissionRequest): PermissionRequiredError {
  switch (request.type) {
    case 'read':
    case 'write':
      return new FilePermissionRequiredError(request)
    case 'command':
      return new CommandPermissionRequiredError(request)
    case 'settings':
      return new SettingsPermissionRequiredError(request)
    case 'mcp':
      return new McpPermissionRequiredError(request)
    case 'network':
      return new NetworkPermissionRequiredError(request)
  }
}
