import { createContext, type ReactNode, useContext, useEffect } from 'react';

const RouteTitleContext = createContext('TrainLab');

/** Sets document.title and lets the page read its title. */
export function RouteTitle({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} | TrainLab`;
  }, [title]);
  return <RouteTitleContext.Provider value={title}>{children}</RouteTitleContext.Provider>;
}

export function useRouteTitle(): string {
  return useContext(RouteTitleContext);
}
