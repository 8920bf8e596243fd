import { type FakeServer, sendJson } from './server';

/** GET /v1/models listing `ids`, as OpenAI and most compatible servers answer it. */
export function installModels(server: FakeServer, ids: string[]): void {
  server.route('GET', '/models', (_req, _raw, res) => {
    sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) });
  });
}
