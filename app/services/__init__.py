"""Domain services: keyword-only async functions taking an AsyncSession, testable without HTTP."""
