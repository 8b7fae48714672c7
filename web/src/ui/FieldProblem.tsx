/**
 * A field's problem in words, under the field (the contract's words, as the server's 400 would give them). The
 * field names `id` in its aria-describedby and sets aria-invalid while there is one; nothing renders without one.
 */
export function FieldProblem({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-red-600 [overflow-wrap:anywhere]">
      {message}
    </p>
  );
}
