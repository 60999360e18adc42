// The dist/lazy/mcp.js chunk: the MCP SDK's client side (and zod under it). Load it with lazyChunk.mcp().
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { auth } from '@modelcontextprotocol/sdk/client/auth.js';
export { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
export {
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
