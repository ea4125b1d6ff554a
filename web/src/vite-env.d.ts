/// <reference types="vite/client" />

/** Front-end version, read from /VERSION at build time (see vite.config.ts). */
declare const __APP_VERSION__: string;

/** Swagger UI's prebuilt bundle (the API page, src/apidocs.ts): the options that page passes. */
declare module 'swagger-ui-dist' {
  interface SwaggerRequest {
    headers: Record<string, string>;
  }
  interface SwaggerUIOptions {
    dom_id: string;
    url: string;
    validatorUrl: string | null;
    deepLinking?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    requestInterceptor?: (req: SwaggerRequest) => SwaggerRequest;
  }
  export function SwaggerUIBundle(options: SwaggerUIOptions): unknown;
}
