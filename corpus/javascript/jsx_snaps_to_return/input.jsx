import { useMemo } from 'react';

export function TodoList({ items, onToggle }) {
  const visible = useMemo(() => items.filter((t) => !t.hidden), [items]);
  return (
    <ul>
      {visible.map((t) => (
        <li key={t.id} onClick={() => onToggle(t.id)}>
          {t.title}
        </li>
      ))}
    </ul>
  );
}
