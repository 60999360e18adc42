/**
 * The `openai` SDK reads an error body's `error` key and nothing else: older vLLM's flat
 * `{"object": "error", "message": ..., "code": ...}` or a FastAPI `{"detail": ...}` would reach us as
 * "400 status code (no body)", and Gemini's list `[{"error": ...}]` the same. This fetch wraps such a body as `{"error": <body>}` before the SDK sees
 * it, so classifyError.ts reads the server's words (and a context-length error is recognised).
 */

type Fetch = typeof fetch;

export function keepingErrorBodies(inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok || !/json/i.test(response.headers.get('content-type') ?? '')) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rebuilt(response, text);
    }
    // Gemini's OpenAI-compatible endpoint sends a list holding one `{error}` object.
    if (Array.isArray(body) && body.length === 1 && body[0] && typeof body[0] === 'object') body = body[0];
    const flat = body && typeof body === 'object' && !Array.isArray(body) && !('error' in body);
    return rebuilt(response, flat ? JSON.stringify({ error: body }) : JSON.stringify(body));
  };
}

function rebuilt(response: Response, text: string): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}
