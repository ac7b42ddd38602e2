import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app.js';
import { createQueryClient } from './lib/query-client.js';
import { toast } from './lib/toast.js';
import './styles.css';

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
