import type { OriginService } from '../src/lib/origin.service';
import { expectOperatorError, activeOperator, useOperatorFixture } from './operator-fixture';

const f = useOperatorFixture();
let origins: OriginService;
beforeEach(() => {
  ({ origins } = f.services);
});

describe('allowed origins', () => {
  it('stores the normalized origin, idempotently', async () => {
    const op = await activeOperator(f);
    expect(await origins.addAllowedOrigin(op.id, 'HTTPS://Tours.Example.COM:443/')).toEqual({
      origin: 'https://tours.example.com',
      added: true,
    });
    expect(await origins.addAllowedOrigin(op.id, 'https://tours.example.com')).toEqual({
      origin: 'https://tours.example.com',
      added: false,
    });
    f.clock.advance(1000);
    await origins.addAllowedOrigin(op.id, 'http://localhost:4200');

    expect(await origins.listAllowedOrigins(op.id)).toEqual(['https://tours.example.com', 'http://localhost:4200']);
    expect(await f.db.prisma.allowedOrigin.count({ where: { operatorId: op.id } })).toBe(2);
  });

  it.each([
    'https://tours.example.com/book',
    '*.example.com',
    'ftp://files.example.com',
    'null',
    'https://a.example?x=1',
  ])('rejects %s with a clear message', async (origin) => {
    const op = await activeOperator(f);
    await expectOperatorError(
      origins.addAllowedOrigin(op.id, origin),
      'invalid_input',
      /not a valid origin.*scheme:\/\/host/,
    );
    expect(await f.db.prisma.allowedOrigin.count()).toBe(0);
  });

  it('removes by any spelling of the origin and reports whether it was there', async () => {
    const op = await activeOperator(f);
    await origins.addAllowedOrigin(op.id, 'https://tours.example.com');
    expect(await origins.removeAllowedOrigin(op.id, 'https://TOURS.example.com/')).toEqual({
      origin: 'https://tours.example.com',
      removed: true,
    });
    expect(await origins.removeAllowedOrigin(op.id, 'https://tours.example.com')).toEqual({
      origin: 'https://tours.example.com',
      removed: false,
    });
    expect(await origins.listAllowedOrigins(op.id)).toEqual([]);
  });

  it('keeps lists per operator and reports unknown operators', async () => {
    const a = await activeOperator(f, 'A');
    const b = await activeOperator(f, 'B');
    await origins.addAllowedOrigin(a.id, 'https://a.example');
    expect(await origins.listAllowedOrigins(b.id)).toEqual([]);
    await expectOperatorError(
      origins.addAllowedOrigin('00000000-0000-4000-8000-000000000000', 'https://a.example'),
      'not_found',
    );
  });
});
