/**
 * The API page (api-docs.html, served at /api/docs): the OpenAPI document the server makes
 * from its route table (GET /api/v1/openapi.json), shown by Swagger UI, bundled (no CDN) in an
 * entry of its own so the app's pages never load it. Calls tried here carry the signed-in
 * user's token (the app's session in this browser) unless one is set with Authorize.
 */
import { SwaggerUIBundle } from 'swagger-ui-dist';
import 'swagger-ui-dist/swagger-ui.css';
import './apidocs.css';
import { getIdToken } from './api/authStorage';

SwaggerUIBundle({
  dom_id: '#api-docs',
  url: './api/v1/openapi.json',
  // Nothing leaves the server: no online validator badge.
  validatorUrl: null,
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  requestInterceptor: (req) => {
    const token = getIdToken();
    if (token && !req.headers.Authorization) req.headers.Authorization = `Bearer ${token}`;
    return req;
  },
});
