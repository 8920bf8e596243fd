/**
 * A table's column headings. The last column of the app's tables holds row buttons: its heading is
 * read by screen readers ("Actions") but not shown, where an empty cell would leave the column unnamed.
 */
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c}>{c}</th>
        ))}
        {actions && (
          <th>
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
