import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
// The base first: each component's stylesheet, imported by the component, comes after it and may override it.
import './styles.css';
import { App } from './app.js';
import { createQueryClient } from './lib/query-client.js';
import { toast } from './lib/toast.js';

const queryClient = createQueryClient((message) => toast({ title: 'Error', description: message, variant: 'destructive' }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
