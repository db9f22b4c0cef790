import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { errorHandler, refuseUnstorableJson, requestId } from './index';

function app() {
  const a = express();
  a.use(requestId());
  a.use(express.json());
  a.use(refuseUnstorableJson(4));
  a.all('/echo', (req, res) => res.json({ ok: true, body: req.body ?? null }));
  a.use(errorHandler(pino({ level: 'silent' })));
  return a;
}

describe('refuseUnstorableJson', () => {
  it('answers 400 invalid_request naming the path of a NUL or a lone surrogate', async () => {
    const nul = await request(app())
      .post('/echo')
      .send({ guestNames: ['Ana', 'B\u0000b'] });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'guestNames.1' }] });
    expect(nul.body.requestId).toEqual(expect.any(String));
    const lone = await request(app()).post('/echo').set('Content-Type', 'application/json').send('{"name":"\\ud800"}');
    expect(lone.status).toBe(400);
    expect(lone.body.details).toEqual([
      { path: 'name', message: expect.stringMatching(/NUL or an unpaired surrogate/) },
    ]);
  });

  it('answers 400 for nesting deeper than its limit', async () => {
    const res = await request(app())
      .post('/echo')
      .send({ a: [{ b: [{ c: 1 }] }] });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toEqual({ path: 'a.0.b.0', message: 'nests deeper than 4 levels' });
  });

  it('passes ordinary bodies and requests without a body', async () => {
    expect(
      (
        await request(app())
          .post('/echo')
          .send({ a: [{ b: 'Åsa 🐧' }] })
      ).status,
    ).toBe(200);
    expect((await request(app()).get('/echo')).body).toEqual({ ok: true, body: null });
  });
});
