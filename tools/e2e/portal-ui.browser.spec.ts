import { describeWithBrowser, expectCount, PASSWORD, usePortalUi } from './portal-ui.session';

/**
 * The operator portal's web UI (apps/operator-portal/ui) in real Chromium against the real portal server (composed
 * in-process on a port the OS picks, with a test database), under the server's strict CSP (no bypass: a CSP violation
 * fails the test). An operator signs up, verifies the e-mail from the dev outbox, sees the test key, adds an origin,
 * tests it, copies the Tier 3 snippet, rotates a key with a grace; the provider admin enables live embedding. axe-core
 * (WCAG 2.1 A/AA: no serious or critical violation) on every page at 1280 and 390 px; screenshots in
 * $TMPDIR/expedition-screens/portal-*.png. The set-up and the repeated browser steps: portal-ui.session.ts.
 */
describeWithBrowser('operator portal UI in Chromium (real server, strict CSP, axe at 1280 and 390 px)', () => {
  const session = usePortalUi();
  const { newContext, audit, heading, go, logIn } = session;

  let operatorEmail = '';
  let operatorName = '';

  it('sign up → verify the e-mail from the outbox → the dashboard shows a test key → add and test an origin → copy the Tier 3 snippet', async () => {
    const { context, page } = await newContext();
    operatorEmail = `owner-${process.pid}-${Date.now()}@polar.example`;
    operatorName = `Polar Horizons ${process.pid}`;

    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    await page.goto(`${session.url}/keys`);
    await heading(page, 'Log in'); // not logged in → the log-in page, which comes back to /keys afterwards
    // The page load asks GET /auth/status, which answers 200 without a session: no 401 in the console.
    expect(consoleErrors).toEqual([]);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/keys');
    await audit(page, 'login');

    await page.getByRole('link', { name: 'Create an operator account' }).click();
    await heading(page, 'Create your operator account');
    await audit(page, 'signup');
    await page.getByLabel('Company name').fill(operatorName);
    await page.getByLabel('Your name (optional)').fill('Ana Lima');
    await page.getByLabel('Work e-mail').fill(operatorEmail);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The browser's own validation (minlength) keeps a short password from being sent.
    expect(page.url()).toContain('/signup');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading(page, 'Dashboard');

    await page.getByText('Please verify your e-mail address').waitFor();
    await page.getByText('Test mode works now').waitFor();
    await page.getByText(/live keys are refused until the provider enables embedding/i).waitFor();
    const testKey = (await page.locator('.secret__value').first().textContent())!.trim();
    expect(testKey).toMatch(/^pk_op_test_[0-9a-f]{48}$/);
    await audit(page, 'dashboard-new');

    // The verification link from the dev outbox (no mail server in embedded mode).
    await page.getByRole('link', { name: 'open the mail outbox' }).click();
    const verifyLink = await page.locator('a[href*="/verify-email?token="]').first().getAttribute('href');
    expect(verifyLink).toBeTruthy();
    await page.goto(verifyLink!);
    await page
      .getByText('your e-mail address is verified')
      .waitFor()
      .catch(async (error) => {
        throw new Error(
          `${error.message}\n--- the page says:\n${await page.locator('body').innerText()}\n--- link: ${verifyLink}`,
        );
      });
    await audit(page, 'verify-email');
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await heading(page, 'Dashboard');
    await page.getByText('Test mode works now').waitFor();
    expect(await page.getByText('Please verify your e-mail address').count()).toBe(0);

    // Allowed origins: a refused entry shows the server's reason; a good one is listed; the tester accepts the test key.
    await go(page, 'Allowed origins', 'Allowed origins');
    await page.getByText('No origins yet').waitFor();
    await audit(page, 'origins-empty');
    await page.getByLabel('Origin', { exact: true }).fill('ftp://tours.example.com');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.locator('[aria-invalid="true"]').waitFor();
    await page.getByLabel('Origin', { exact: true }).fill('https://tours.example.com');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByRole('listitem').filter({ hasText: 'https://tours.example.com' }).waitFor();
    // A page's address tests the origin it is served from, and says so.
    await page.getByLabel('Page address or origin').fill('https://tours.example.com/voyages/antarctica.html');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByText(/accepted for 1 of 1 keys/).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'is served from the origin' }).innerText()).toMatch(
      /The page https:\/\/tours\.example\.com\/voyages\/antarctica\.html is served from the origin https:\/\/tours\.example\.com/,
    );
    await audit(page, 'origins');

    // Integration: the Tier 3 snippet carries the key and lands on the clipboard.
    await go(page, 'Integration', 'Integration');
    await page.getByRole('button', { name: 'Copy Tier 3 snippet' }).click();
    await page.getByRole('button', { name: 'Copied Tier 3 snippet' }).waitFor();
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toContain(testKey);
    await audit(page, 'integration');

    for (const [nav, title, name] of [
      ['Webhooks', 'Webhooks', 'webhooks'],
      ['Team', 'Team', 'team'],
      ['Audit log', 'Audit log', 'audit'],
      ['Settings', 'Settings', 'settings'],
    ] as const) {
      await go(page, nav, title);
      await page.locator('.loading').waitFor({ state: 'detached' });
      await audit(page, name);
    }
    await context.close();
  });

  it('API keys: create a live key, rotate the test key with a 24-hour grace (both keep working), revoke with a confirmation', async () => {
    const { context, page } = await newContext();
    await logIn(page, operatorEmail, '/keys');
    await heading(page, 'API keys');
    const rows = page.locator('tbody tr[data-key-id]');
    await rows.first().waitFor();
    const before = await rows.count();

    await page.getByLabel('Mode').first().selectOption('live');
    await page.getByLabel('Label (optional)').fill('main site');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('New live key created.').waitFor();
    await expectCount(rows, before + 1);
    const liveRow = rows.filter({ hasText: 'main site' });
    await liveRow.getByText('refused until the provider enables live embedding').waitFor();
    await liveRow.getByText('awaiting approval', { exact: true }).waitFor();

    const testRow = rows
      .filter({ hasText: 'test' })
      .filter({ has: page.getByRole('button', { name: /^Rotate/ }) })
      .first();
    await testRow.getByRole('button', { name: /^Rotate/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate this key' });
    await dialog.waitFor();
    await dialog.getByLabel('For 24 hours').check();
    await audit(page, 'keys-rotate-dialog');
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByText('Key rotated.').waitFor();
    await expectCount(rows, before + 2);
    // The old key: still accepted, expiring in a day; the new one is active.
    await page.locator('.svc-badge', { hasText: /^expires (tomorrow|in 2[34] hours)$/ }).waitFor();

    await liveRow.getByRole('button', { name: /^Revoke/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await liveRow.getByRole('button', { name: /^Revoke/ }).click();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key revoked.').waitFor();
    await liveRow.locator('.svc-badge', { hasText: 'revoked' }).waitFor();

    // A second active test key: the dashboard and the Integration page both show the newest one.
    await page.getByLabel('Mode').first().selectOption('test');
    await page.getByLabel('Label (optional)').fill('second site');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('New test key created.').waitFor();
    const newestTestKey = (await rows
      .filter({ hasText: 'second site' })
      .locator('code')
      .first()
      .getAttribute('title'))!;

    // A secret key is shown once with a copy button.
    await page.getByRole('button', { name: 'Create secret key' }).click();
    await page.getByText('Copy your secret key now').waitFor();
    expect((await page.getByTestId('minted-secret').textContent())!.trim()).toMatch(/^sk_op_/);
    await audit(page, 'keys');

    // The mobile menu: at 390 px the navigation is behind a Menu button.
    await page.setViewportSize({ width: 390, height: 800 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await heading(page, 'Dashboard');
    expect(await nav.isVisible()).toBe(false);
    expect(await page.locator('.secret__value').innerText()).toBe(newestTestKey);
    await page.setViewportSize({ width: 1280, height: 900 });
    await go(page, 'Integration', 'Integration');
    expect(
      await page
        .getByText(/^Using your test key/)
        .locator('code')
        .innerText(),
    ).toBe(newestTestKey);
    await context.close();
  });

  it('the provider admin finds the operator and enables live embedding; the operator no longer sees the test-mode banner', async () => {
    const adminEmail = `admin-${process.pid}-${Date.now()}@provider.example`;
    await session.portal.accounts.createProviderAdmin(adminEmail, PASSWORD);
    const { context, page } = await newContext();
    await logIn(page, adminEmail, '/admin');
    await heading(page, 'Operators');
    await page.getByLabel('Search operators').fill(operatorName);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: operatorName }).click();
    await heading(page, operatorName);
    await page.locator('.loading').waitFor({ state: 'detached' });
    await audit(page, 'admin-operator');

    await page.getByRole('button', { name: 'Enable live embedding' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enable live embedding?' });
    await dialog.getByRole('button', { name: 'Enable live embedding' }).click();
    await page.getByRole('button', { name: 'Disable live embedding' }).waitFor();
    await page.getByText('enabled: live keys work').waitFor();

    await page.getByLabel('Commission (basis points)').fill('12.5');
    await page.getByRole('button', { name: 'Save commission' }).click();
    await page.getByText(/A whole number of basis points/).waitFor();
    await page.getByLabel('Commission (basis points)').fill('1250');
    await page.getByRole('button', { name: 'Save commission' }).click();
    await page.getByText('Commission set to 12.5% for future sales.').waitFor();

    // Webhook URL, then a signing secret: shown once, with a copy button.
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:14005/webhooks');
    await page.getByRole('button', { name: 'Save URL' }).click();
    await page.getByText('Webhook URL saved.').waitFor();
    // One confirmation at a time: "Webhook URL saved." replaced the commission's.
    expect(await page.locator('.svc-toasts [role="status"] .svc-toast span').allInnerTexts()).toEqual([
      'Webhook URL saved.',
    ]);
    await page.getByRole('button', { name: 'Generate secret' }).click();
    const generate = page.getByRole('dialog', { name: 'Generate a signing secret?' });
    await generate.getByRole('button', { name: 'Generate secret' }).click();
    await page.getByText('Copy the new signing secret now').waitFor();
    const secret = (await page.getByTestId('new-webhook-secret').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(20);
    await page.getByText('Signing secret: set').waitFor();

    await go(page, 'Audit log', 'Audit log');
    await page.getByText('Operator embedding changed').first().waitFor();
    // Operators by name, changes as "field: before → after" (not raw JSON).
    const embeddingRow = page
      .locator('tbody tr', { hasText: 'Operator embedding changed' })
      .filter({ hasText: operatorName })
      .first();
    expect(await embeddingRow.locator('td[data-label="Change"]').innerText()).toBe('embeddingEnabled: false → true');
    expect(await page.locator('td[data-label="Change"]').allInnerTexts()).not.toContainEqual(
      expect.stringContaining('{"'),
    );
    await audit(page, 'admin-audit');
    await go(page, 'Operators', 'Operators');
    await audit(page, 'admin-operators');
    await context.close();

    const operator = await newContext();
    await logIn(operator.page, operatorEmail, '/');
    await heading(operator.page, 'Dashboard');
    await operator.page.getByText('Recent policies').waitFor();
    await operator.page.locator('.loading').first().waitFor({ state: 'detached' });
    expect(await operator.page.getByText('Test mode works now').count()).toBe(0);
    await go(operator.page, 'Webhooks', 'Webhooks');
    await operator.page.getByText('12.5%').waitFor();
    await operator.page.getByText('http://127.0.0.1:14005/webhooks').waitFor();
    // The owner reveals the signing secret the admin generated.
    await operator.page.getByRole('button', { name: 'Reveal signing secret' }).click();
    await operator.page.locator('.secret__value', { hasText: secret }).waitFor();
    // A test event lands in the delivery log (pending: no dispatcher runs in this test) and opens with its body.
    await operator.page.getByRole('button', { name: 'Send a test event' }).click();
    await operator.page.getByText(/Test event queued/).waitFor();
    const row = operator.page.locator('tbody tr[data-event-id]').first();
    await row.getByText('test event').waitFor();
    await audit(operator.page, 'webhooks-with-event');
    await row.getByRole('link').click();
    await heading(operator.page, 'Webhook event');
    await operator.page.getByText('This is a test event').waitFor();
    // Pending (no dispatcher runs here): no Resend until it is delivered or failed. Make it a failed delivery.
    await operator.page.getByText('Delivery is in progress').waitFor();
    expect(await operator.page.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    await session.db.prisma.webhookEvent.updateMany({
      where: { isTest: true, status: 'pending' },
      data: { status: 'failed', lastError: 'connect ECONNREFUSED' },
    });
    await operator.page.reload();
    await operator.page.getByRole('button', { name: 'Resend' }).click();
    await operator.page.getByText('Queued for a new attempt with the same eventId and body.').waitFor();
    await audit(operator.page, 'webhook-event');
    await operator.context.close();
  });

  it('wrong password: a clear error that does not say whether the account exists; an operator user cannot open the admin', async () => {
    const { context, page } = await newContext();
    await page.goto(`${session.url}/login`);
    await page.getByLabel('E-mail').fill(operatorEmail);
    await page.getByLabel('Password').fill('not-the-password-at-all');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The e-mail address or password is not correct.' }).waitFor();
    await audit(page, 'login-error');

    await logIn(page, operatorEmail, '/admin');
    await heading(page, 'Not available to your account');
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading(page, 'Log in');
    await context.close();
  });

  it('team: the owner invites a member, who accepts from the e-mailed link, sees the team read-only, and resets a forgotten password', async () => {
    const memberEmail = `member-${process.pid}-${Date.now()}@polar.example`;
    const owner = await newContext();
    await logIn(owner.page, operatorEmail, '/team');
    await heading(owner.page, 'Team');
    await owner.page.getByLabel('E-mail').fill(memberEmail);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByRole('listitem').filter({ hasText: memberEmail }).waitFor();
    await audit(owner.page, 'team-invited');
    await owner.context.close();

    const member = await newContext();
    const page = member.page;
    await page.goto(`${session.url}/dev/outbox`);
    const inviteLink = await page
      .locator('article', { hasText: memberEmail })
      .locator('a[href*="/accept-invite?token="]')
      .first()
      .getAttribute('href');
    await page.goto(inviteLink!);
    await heading(page, 'Join your team');
    await audit(page, 'accept-invite');
    await page.getByLabel('Your name (optional)').fill('Bo Member');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await heading(page, 'Dashboard');
    await go(page, 'Team', 'Team');
    await page.getByText('Only an owner can invite or remove members.').waitFor();
    expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    await go(page, 'API keys', 'API keys');
    await page.getByText('Only an owner of the account can create or revoke secret keys.').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading(page, 'Log in');

    // Forgot password: the answer never says whether the account exists; the e-mailed link sets a new password.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await heading(page, 'Reset your password');
    await audit(page, 'forgot-password');
    await page.getByLabel('E-mail').fill(memberEmail);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account exists for ${memberEmail}`).waitFor();
    await page.goto(`${session.url}/dev/outbox`);
    const resetLink = await page
      .locator('article', { hasText: memberEmail })
      .locator('a[href*="/reset-password?token="]')
      .first()
      .getAttribute('href');
    await page.goto(resetLink!);
    await heading(page, 'Choose a new password');
    await page.getByLabel('New password', { exact: true }).fill(`${PASSWORD}-new`);
    await page.getByLabel('Repeat the new password').fill(`${PASSWORD}-typo`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The two passwords are not the same.').waitFor();
    await page.getByLabel('Repeat the new password').fill(`${PASSWORD}-new`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been changed').waitFor();
    await audit(page, 'reset-password-done');
    await page.getByRole('link', { name: 'Log in with the new password' }).click();
    await page.getByLabel('E-mail').fill(memberEmail);
    await page.getByLabel('Password').fill(`${PASSWORD}-new`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading(page, 'Dashboard');
    await member.context.close();
  });

  it('dark mode (system preference): the dashboard and the keys page keep their contrast', async () => {
    const { context, page } = await newContext('dark');
    await logIn(page, operatorEmail, '/');
    await heading(page, 'Dashboard');
    await page.locator('.loading').first().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 23, 32)');
    await audit(page, 'dark-dashboard');
    await go(page, 'API keys', 'API keys');
    await page.locator('tbody tr[data-key-id]').first().waitFor();
    await audit(page, 'dark-keys');
    await context.close();
  });
});
