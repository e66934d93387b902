import { isFiltered, nameOptions } from './EventTable.state';
import { COLLECTOR_ENDPOINTS, type EventFilter } from './types';

/** The table's search: free text, an event name, an endpoint, and Clear while any is set. */
export function EventFilterBar({ filter, onFilter, names }: { filter: EventFilter; onFilter: (filter: EventFilter) => void; names: readonly string[] }) {
  return (
    <div className="toolbar" role="search">
      <input
        type="search"
        className="search"
        placeholder="Search names and payloads…"
        aria-label="Search events"
        value={filter.text}
        onChange={(e) => onFilter({ ...filter, text: e.target.value })}
      />
      <select aria-label="Event name" value={filter.name} onChange={(e) => onFilter({ ...filter, name: e.target.value })}>
        <option value="">All names</option>
        {nameOptions(filter, names).map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <select aria-label="Endpoint" value={filter.endpoint} onChange={(e) => onFilter({ ...filter, endpoint: e.target.value as EventFilter['endpoint'] })}>
        <option value="">All endpoints</option>
        {COLLECTOR_ENDPOINTS.map((endpoint) => (
          <option key={endpoint} value={endpoint}>
            {endpoint}
          </option>
        ))}
      </select>
      {isFiltered(filter) && (
        <button type="button" className="ghost" onClick={() => onFilter({ text: '', name: '', endpoint: '', ...(filter.view ? { view: filter.view } : {}) })}>
          Clear
        </button>
      )}
    </div>
  );
}
