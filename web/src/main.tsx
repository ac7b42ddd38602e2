import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { UploadPage } from './upload-page.js';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <UploadPage />
  </StrictMode>,
);
