import { QueryClient } from '@tanstack/react-query';

/** The API client already retries GETs; react-query must not retry on top of it. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
