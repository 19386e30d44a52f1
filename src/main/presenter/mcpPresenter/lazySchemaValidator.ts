import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator
} from '@modelcontextprotocol/sdk/validation/types.js'

/**
 * The SDK client builds an Ajv instance in its constructor and compiles every tool's
 * `outputSchema` as soon as the tools are listed. Both cost CPU on the main thread while a
 * server starts (ten parallel starts pay it ten times, in turn) and are only needed when a tool
 * with an output schema returns structured content. This defers both to that first call.
 * One instance per client: Ajv keeps every schema it compiled, so sharing one across clients
 * would hold on to the schemas of every server and reconnect for the app's lifetime.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  private ajv?: AjvJsonSchemaValidator

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let compiled: JsonSchemaValidator<T> | undefined
    return (input) => {
      if (!compiled) {
        this.ajv ??= new AjvJsonSchemaValidator()
        try {
          compiled = this.ajv.getValidator<T>(schema)
        } catch (error) {
          // A server's broken schema should fail its own call clearly, not crash the catalog.
          const reason = error instanceof Error ? error.message : String(error)
          compiled = () => ({
            valid: false,
            data: undefined,
            errorMessage: `the tool's outputSchema is not valid JSON Schema: ${reason}`
          })
        }
      }
      return compiled(input)
    }
  }
}
