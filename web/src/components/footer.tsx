import { Link } from 'react-router-dom';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../lib/site.js';
import './footer.css';

export function Footer() {
  return (
    <footer className="footer">
      <div className="container footer-inner">
        <div>
          <p className="brand">{PRODUCT_NAME}</p>
          <p className="muted">Receipt photos and PDFs to Excel, checked field by field.</p>
        </div>
        <nav aria-label="Footer">
          <ul className="footer-links">
            <li><Link to="/pricing">Pricing</Link></li>
            <li><Link to="/features">Features</Link></li>
            <li><Link to="/blog">Blog</Link></li>
            <li><Link to="/contact">Contact</Link></li>
            <li><Link to="/about">About</Link></li>
            <li><Link to="/privacy">Privacy</Link></li>
            {/* Served by the api, not a page of this app: a full page load. */}
            <li><a href="/docs/api">API</a></li>
          </ul>
        </nav>
        <p className="muted small">
          © {new Date().getFullYear()} {PRODUCT_NAME} · <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </p>
      </div>
    </footer>
  );
}
