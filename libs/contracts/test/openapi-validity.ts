/**
 * The two tests every full OpenAPI document of the repo passes (portal, quote API): it is valid OpenAPI 3.1, and the
 * validator is no rubber stamp (the document with one response map broken, at `paths[brokenPath].post`, fails).
 */
export function itIsAValidOpenApi31Document(doc: object, brokenPath: string): void {
  it('is a valid OpenAPI 3.1 document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is checked by a validator that rejects a broken document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const broken = JSON.parse(JSON.stringify(doc));
    broken.paths[brokenPath].post.responses = { ok: 'no' };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
}
