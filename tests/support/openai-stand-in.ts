// A local server that speaks the OpenAI chat-completions wire format (POST /v1/chat/completions,
// JSON or server-sent events), as Ollama, vLLM, LM Studio and llama.cpp serve it. Its answers are
// built from the request alone: by default an object that fills the JSON Schema the request's
// response_format carries (nulls where allowed, empty lists, "stand-in" for text), or what a
// test scripts. Run directly it serves until stopped and prints its base URL:
//   npx tsx tests/support/openai-stand-in.ts [port]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface ChatRequest {
  body: {
    model: string;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
    response_format?: { type: string; json_schema?: { name: string; schema: JsonSchema; strict?: boolean } };
    [key: string]: unknown;
  };
  authorization?: string;
}

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

/** What the stand-in does with the next request. */
export type Reply =
  /** An answer whose message content is this text (or what the function makes of the request). */
  | { content: string | ((request: ChatRequest) => string) }
  /** An HTTP error with an OpenAI-style error body. */
  | { status: number; message?: string; headers?: Record<string, string> }
  /** Headers and, when streaming, the first chunk; then nothing until the client gives up. */
  | { hang: true };

/** An object that satisfies `schema`, made from the schema alone. */
export function fillSchema(schema: JsonSchema): unknown {
  const types = schema.anyOf?.flatMap((s) => s.type ?? []) ?? [schema.type].flat();
  if (types.includes('null')) return null;
  if (types.includes('object') || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, s]) => [name, fillSchema(s)]));
  }
  if (types.includes('array')) return [];
  if (types.includes('number') || types.includes('integer')) return 0;
  if (types.includes('boolean')) return false;
  return 'stand-in';
}

function defaultContent(request: ChatRequest): string {
  const schema = request.body.response_format?.json_schema?.schema;
  return JSON.stringify(schema ? fillSchema(schema) : {});
}

export async function startOpenAiStandIn(options: { port?: number } = {}) {
  const requests: ChatRequest[] = [];
  const replies: Reply[] = [];
  const open = new Set<http.ServerResponse>();
  let inFlight = 0;
  let maxInFlight = 0;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${req.url}`, type: 'invalid_request_error' } }));
        return;
      }
      const request: ChatRequest = { body: JSON.parse(raw) as ChatRequest['body'], authorization: req.headers.authorization };
      requests.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      open.add(res);
      res.on('close', () => {
        inFlight--;
        open.delete(res);
      });
      const reply = replies.shift() ?? { content: defaultContent };
      // A moment of "generation", so requests sent together overlap as they do on a real server.
      setTimeout(() => answer(request, reply, res), 20);
    });
  });

  function answer(request: ChatRequest, reply: Reply, res: http.ServerResponse): void {
    if ('status' in reply) {
      const body = { error: { message: reply.message ?? http.STATUS_CODES[reply.status], type: reply.status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(body));
      return;
    }
    const id = `chatcmpl-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const { model, stream } = request.body;
    if ('hang' in reply) {
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      if (stream) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: { role: 'assistant', content: '{' }, finish_reason: null }] })}\n\n`);
      return;
    }
    const content = typeof reply.content === 'function' ? reply.content(request) : reply.content;
    const usage = { prompt_tokens: 1000, completion_tokens: Math.ceil(content.length / 4), total_tokens: 1000 + Math.ceil(content.length / 4) };
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`);
    // A few tokens at a time, as a server streams them.
    for (let i = 0; i < content.length; i += 7) chunk([{ index: 0, delta: i === 0 ? { role: 'assistant', content: content.slice(i, i + 7) } : { content: content.slice(i, i + 7) }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    if (request.body.stream_options?.include_usage) chunk([], { usage });
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** The replies to the next requests, in order; after them, the default answer. */
    reply: (...next: Reply[]) => replies.push(...next),
    /** The most requests it held at once. */
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const standIn = await startOpenAiStandIn({ port: process.argv[2] ? Number(process.argv[2]) : 0 });
  console.log(standIn.baseUrl);
  process.on('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
  process.on('SIGINT', () => void standIn.close().then(() => process.exit(0)));
}
