import { useParams } from 'react-router';

export function CoursePage() {
  const { id } = useParams();
  return <h1 className="page-title">Course {id}</h1>;
}

export function SharePage() {
  return <h1 className="page-title">Share</h1>;
}

export function JoinPage() {
  return <h1 className="page-title">Joining classroom...</h1>;
}
