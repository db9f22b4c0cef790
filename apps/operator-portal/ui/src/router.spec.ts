import { matchPath, safeNext } from './router';
import { findRoute } from './app';
import { isCurrent } from './shell/shell';
import { isPublicPath, loginPathFor } from './session';

describe('routing', () => {
  it('matches static and parameter segments, ignoring trailing slashes', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/keys', '/keys/')).toEqual({});
    expect(matchPath('/webhooks/events/:id', '/webhooks/events/evt%201')).toEqual({ id: 'evt 1' });
    expect(matchPath('/keys', '/keys/extra')).toBeNull();
    expect(matchPath('/admin/operators/:id', '/admin/operators/')).toBeNull();
    expect(matchPath('/x/:id', '/x/%E0%A4%A')).toBeNull();
  });

  it('finds the page of every portal path, admin pages included', () => {
    expect(findRoute('/')?.route.area).toBe('operator');
    expect(findRoute('/webhooks/events/abc')?.params).toEqual({ id: 'abc' });
    expect(findRoute('/admin/operators/42')?.route.area).toBe('admin');
    expect(findRoute('/settings')?.route.area).toBe('any');
    expect(findRoute('/nope')).toBeNull();
  });

  it('follows ?next= only to same-app paths', () => {
    expect(safeNext('/keys?x=1')).toBe('/keys?x=1');
    expect(safeNext('//evil.example/x')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext('/\\evil.example')).toBe('/');
    expect(safeNext(null, '/admin')).toBe('/admin');
  });

  it('sends a logged-out visitor to the log-in page with the page to come back to', () => {
    expect(loginPathFor('/keys', '?tab=1')).toBe('/login?next=%2Fkeys%3Ftab%3D1');
    expect(loginPathFor('/', '')).toBe('/login');
    expect(isPublicPath('/reset-password')).toBe(true);
    expect(isPublicPath('/sign-in-link')).toBe(true);
    expect(isPublicPath('/keys')).toBe(false);
  });

  it('marks the navigation entry of the current page', () => {
    expect(isCurrent('/', '/')).toBe(true);
    expect(isCurrent('/', '/keys')).toBe(false);
    expect(isCurrent('/webhooks', '/webhooks/events/1')).toBe(true);
    expect(isCurrent('/admin', '/admin/operators/1')).toBe(true);
    expect(isCurrent('/admin', '/admin/audit')).toBe(false);
  });
});
