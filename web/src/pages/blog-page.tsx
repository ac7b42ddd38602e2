import { Link } from 'react-router-dom';
import { usePageTitle } from '../hooks/use-page-title.js';
import { BLOG_POSTS } from '../lib/blog-posts.js';
import './blog-page.css';

export default function BlogPage() {
  usePageTitle('Blog');
  return (
    <div className="container page-narrow">
      <h1>Blog</h1>
      <ul className="post-list">
        {BLOG_POSTS.map((p) => (
          <li key={p.slug} className="card">
            <h2>
              <Link to={`/blog/${p.slug}`}>{p.title}</Link>
            </h2>
            <p className="muted">{p.summary}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
