import { render } from 'preact';
import { App } from './app';

// The server's HTML shell has <div id="app">; everything else is rendered here (no inline script: strict CSP).
const root = document.getElementById('app');
if (root) render(<App />, root);
