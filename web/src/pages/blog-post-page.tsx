import { Link, useParams } from 'react-router-dom';
import { usePageTitle } from '../hooks/use-page-title.js';
import { BLOG_POSTS } from '../lib/blog-posts.js';
import { NotFoundPage } from './not-found-page.js';

export default function BlogPostPage() {
  const { slug } = useParams();
  const post = BLOG_POSTS.find((p) => p.slug === slug);
  usePageTitle(post?.title ?? 'Page Not Found');
  if (!post) return <NotFoundPage />;
  return (
    <article className="container page-narrow prose">
      <Link to="/blog" className="back-link">
        ← All posts
      </Link>
      <h1>{post.title}</h1>
      <p className="hero-lead">{post.summary}</p>
      {post.body.map((para) => (
        <p key={para.slice(0, 24)}>{para}</p>
      ))}
    </article>
  );
}
