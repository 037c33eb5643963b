FROM node:20-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src/ src/
COPY --from=web /src/src/afterhack/static src/afterhack/static
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["afterhack", "serve", "--host", "0.0.0.0", "--port", "8000"]
