import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './features';
import { App } from './app/App';
import { isSupportedBrowser } from './app/browser/browserSupport';
import { consumeUrlTokens, installSessionListeners, startSession } from './core/session';

// Before the router reads the URL: take SSO tokens out of it, and send
// unsupported browsers to the browser-not-supported page.
consumeUrlTokens();
if (!isSupportedBrowser(navigator.userAgent) && window.location.hash !== '#/browser') {
  window.location.replace('#/browser');
}

installSessionListeners();
void startSession();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
